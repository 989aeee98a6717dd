// End to end, from a send's 200 to its email reaching the SMTP peer (and to GET /logs/{id} showing
// email_sent_at, one probe a second polled every 50 ms), against a bare Fastify server measured in the same run (closed loop, c=64):
// - the highest offered rate the all-in-one service keeps up with for 60 s (short steps find the
//   candidate, the long run decides: a slowly growing backlog shows only over time);
// - latency at half that rate;
// - ten times that rate for 10 s: anonymous memory against idle, /health/live polled throughout,
//   refusals (503 NOT_ACCEPTED) counted;
// - the same sustained search for an email+SMS mix (each send goes to both channels; it counts as
//   arrived once the email reached the SMTP peer and the SMS the Twilio peer, through the twilio
//   SDK, with the peer's status callbacks posted back to the service);
// - when Kafka, MongoDB and Redis run (`npm run infra:up`), the same sustained search for gateway,
//   router and email sender as three processes over them.
// The goals of issue 11 are printed with each figure.
import { provisionerFor } from '@notify/gateway-feature';
import { loadAppConfig } from '@notify/platform';
import { MongoDocumentStore } from '@notify/store';
import { sleep, tempDir } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { type Figure, percentile, report, runBench } from '../report';
import { backendsUp, sized } from '../smoke';
import {
  build,
  clusterEnv,
  load,
  maxRss,
  type Proc,
  type Rss,
  rss,
  SEND_BODY,
  startApp,
  startBaseline,
} from './harness';
import { SmtpSink } from './smtp-sink';
import { TwilioPeer } from '@notify/local-peer-twilio';

/** Where sends are seen to arrive: tracking id → when it arrived. */
interface Sink {
  readonly arrivals: ReadonlyMap<string, number>;
}

const MIX_BODY = JSON.stringify({
  type: 'bench-mix',
  to: { id: 'user-{{i}}', email: 'user-{{i}}@example.com', number: '+14155552671' },
  forceChannels: ['EMAIL', 'SMS'],
  email: { subject: 'Hello {{name}}', html: '<p>Hello {{name}}, this is message {{i}}.</p>' },
  sms: { message: 'Hello {{name}}, this is message {{i}}.' },
  parameters: { name: 'Bench' },
});

/** A send of the mix arrives when both its email and its SMS did. */
class MixSink implements Sink {
  readonly arrivals = new Map<string, number>();
  private readonly seen = new Set<string>();

  constructor(mail: SmtpSink, twilio: TwilioPeer) {
    mail.onArrival = (id) => this.arrived(id);
    twilio.onMessage((entry) => {
      if (entry.trackingId !== undefined) this.arrived(entry.trackingId);
    });
  }

  private arrived(id: string): void {
    if (this.arrivals.has(id)) return;
    if (this.seen.delete(id)) this.arrivals.set(id, Date.now());
    else this.seen.add(id);
  }
}

const KEY = `notify_sk_${randomBytes(24).toString('base64url')}`;
const RAMP = (process.env.BENCH_RAMP ?? sized('200,400,600,800,1000,1200,1600', '40')).split(',').map(Number);
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? sized(15, 1));
const SUSTAIN_SECONDS = Number(process.env.BENCH_SUSTAIN_SECONDS ?? sized(60, 2));
const HALF_SECONDS = sized(20, 1);
const OVERLOAD_FACTOR = 10;
const OVERLOAD_SECONDS = sized(10, 1);
/** How long a service is left alone after it started, before it is measured. */
const SETTLE_MS = sized(3_000, 500);

/** The services under test: `front` takes the HTTP load, `pids` are every process of the topology. */
interface Topology {
  readonly name: string;
  readonly front: Proc;
  readonly pids: readonly number[];
  /** Whether GET /logs answers (the event log runs), for the send → log probes. */
  readonly logs: boolean;
  /** The send body of the load ({{i}} numbers the probes). */
  readonly body: string;
  stop(): Promise<void>;
}

interface RunResult {
  readonly rate: number;
  readonly accepted: number;
  readonly refused: number;
  readonly mailMs: number[];
  readonly logMs: number[];
  /** Accepted but not yet delivered, sampled each second. */
  readonly backlog: number[];
  readonly drainMs: number;
  readonly peakRss: Rss;
}

const mib = (bytes: number) => bytes / 2 ** 20;
const sumRss = (pids: readonly number[]): Rss =>
  pids
    .map(rss)
    .reduce((a, b) => ({ total: a.total + b.total, anon: a.anon + b.anon }), { total: 0, anon: 0 });

async function send(topology: Topology, i: number): Promise<string | undefined> {
  const response = await fetch(`${topology.front.baseUrl}/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: topology.body.replaceAll('{{i}}', `probe-${i}`),
  });
  return response.ok ? ((await response.json()) as { trackingId: string }).trackingId : undefined;
}

/** A probe send whose log is polled until email_sent_at appears: the send→log latency. */
async function probe(topology: Topology, i: number, until: number): Promise<number | undefined> {
  const trackingId = await send(topology, i);
  const accepted = Date.now();
  while (trackingId !== undefined && Date.now() < until) {
    const response = await fetch(`${topology.front.baseUrl}/logs/${trackingId}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    if (response.ok) {
      const { logs } = (await response.json()) as { logs: { email_sent_at?: string }[] };
      if (logs[0]?.email_sent_at !== undefined) return Date.now() - accepted;
    }
    await sleep(50);
  }
  return undefined;
}

async function atRate(
  topology: Topology,
  sink: Sink,
  rate: number,
  seconds: number,
  options: { overload: boolean } = { overload: false },
): Promise<RunResult> {
  const arrivedBefore = sink.arrivals.size;
  const started = Date.now();
  const backlog: number[] = [];
  let peakRss = sumRss(topology.pids);
  const sampler = setInterval(() => {
    const elapsed = (Date.now() - started) / 1000;
    backlog.push(
      Math.max(0, Math.round(Math.min(elapsed, seconds) * rate) - (sink.arrivals.size - arrivedBefore)),
    );
    peakRss = maxRss(peakRss, sumRss(topology.pids));
  }, 1000);
  const probes: Promise<number | undefined>[] = [];
  const prober =
    topology.logs && !options.overload
      ? setInterval(
          () => probes.push(probe(topology, probes.length, started + seconds * 1000 + 60_000)),
          1_000,
        )
      : undefined;
  const result = await load(
    {
      url: `${topology.front.baseUrl}/send`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: topology.body,
      mode: 'open',
      concurrency: 512,
      durationMs: seconds * 1000,
      rate,
      recordResponses: true,
    },
    topology.pids,
  );
  clearInterval(prober);
  const responses = result.responses ?? [];
  // From the last response, not from the start: the generator process takes a moment to start.
  const loadEnded = Date.now();
  const deadline = Date.now() + (options.overload ? 0 : 90_000);
  while (Date.now() < deadline && responses.some(([id]) => !sink.arrivals.has(id))) await sleep(100);
  const drainMs = Date.now() - loadEnded;
  clearInterval(sampler);
  peakRss = maxRss(peakRss, sumRss(topology.pids));
  const mailMs = responses.flatMap(([id, doneAt]) => {
    const arrived = sink.arrivals.get(id);
    return arrived === undefined ? [] : [Math.max(0, arrived - doneAt)];
  });
  const logMs = (await Promise.all(probes)).filter((ms): ms is number => ms !== undefined);
  process.stderr.write(
    `  ${topology.name} ${rate}/s for ${seconds} s: ${responses.length} accepted, ${result.requests - result.ok} refused, ${mailMs.length} delivered, drained ${drainMs} ms after\n`,
  );
  return {
    rate,
    accepted: responses.length,
    refused: result.requests - result.ok,
    mailMs: mailMs.sort((a, b) => a - b),
    logMs: logMs.sort((a, b) => a - b),
    backlog,
    drainMs,
    peakRss,
  };
}

/** Keeps up: everything accepted was delivered within 2 s of the end, and the backlog stayed flat. */
function keptUp(run: RunResult, seconds: number): boolean {
  const half = run.backlog[Math.floor(seconds / 2)] ?? 0;
  const end = run.backlog[seconds - 1] ?? 0;
  return (
    run.refused === 0 &&
    run.mailMs.length === run.accepted &&
    run.drainMs <= 2_000 &&
    end <= half + run.rate / 2
  );
}

/** The highest ramp rate held for SUSTAIN_SECONDS (falling back once to the rate below), or 0. */
async function sustained(topology: Topology, sink: Sink): Promise<{ rate: number; run?: RunResult }> {
  const passed: number[] = [];
  for (const rate of RAMP) {
    if (!keptUp(await atRate(topology, sink, rate, STEP_SECONDS), STEP_SECONDS)) break;
    passed.push(rate);
  }
  for (const candidate of passed.slice(-2).reverse()) {
    const run = await atRate(topology, sink, candidate, SUSTAIN_SECONDS);
    if (keptUp(run, SUSTAIN_SECONDS)) return { rate: candidate, run };
  }
  return { rate: 0 };
}

/** /health/live polled every 250 ms while `during` runs: slowest answer and failures (none in 2 s). */
async function watchLiveness<T>(
  front: Proc,
  during: Promise<T>,
): Promise<{ result: T; maxMs: number; failures: number }> {
  let maxMs = 0;
  let failures = 0;
  let done = false;
  const poller = (async () => {
    while (!done) {
      const started = Date.now();
      const ok = await fetch(`${front.baseUrl}/health/live`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.ok,
        () => false,
      );
      maxMs = Math.max(maxMs, Date.now() - started);
      if (!ok) failures++;
      await sleep(250);
    }
  })();
  const result = await during;
  done = true;
  await poller;
  return { result, maxMs, failures };
}

function latencyFigures(label: string, run: RunResult): Figure[] {
  const figures: Figure[] = [
    { name: `${label}: 200 → email at SMTP peer, p50`, value: percentile(run.mailMs, 50), unit: 'ms' },
    { name: `${label}: 200 → email at SMTP peer, p99`, value: percentile(run.mailMs, 99), unit: 'ms' },
  ];
  if (run.logMs.length > 0) {
    figures.push(
      {
        name: `${label}: 200 → log shows email_sent_at, p50`,
        value: percentile(run.logMs, 50),
        unit: 'ms',
        note: `${run.logMs.length} probes`,
      },
      { name: `${label}: 200 → log shows email_sent_at, p99`, value: percentile(run.logMs, 99), unit: 'ms' },
    );
  }
  return figures;
}

const goal = (met: boolean, text: string) => `goal ${text}: ${met ? 'met' : 'MISSED'}`;

async function bareFastify(): Promise<number> {
  const baseline = await startBaseline();
  const result = await load(
    {
      url: `${baseline.baseUrl}/send`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: SEND_BODY,
      mode: 'closed',
      concurrency: 64,
      durationMs: sized(5_000, 1_000),
    },
    [baseline.child.pid ?? 0],
  );
  await baseline.stop();
  return (result.ok / result.elapsedMs) * 1000;
}

async function allInOne(smtpUrl: string, twilio?: TwilioPeer): Promise<Topology> {
  const data = await tempDir('notify-bench-');
  const front = await startApp('all-in-one', {
    DATA_DIR: data.path,
    BOOTSTRAP_API_KEY: KEY,
    SMTP_URL: smtpUrl,
    ...(twilio === undefined
      ? {}
      : {
          TWILIO_ACCOUNT_SID: twilio.accountSid,
          TWILIO_AUTH_TOKEN: twilio.authToken,
          TWILIO_FROM_NUMBER: '+15005550006',
          TWILIO_API_URL: twilio.url,
        }),
  });
  return {
    name: twilio === undefined ? 'all-in-one' : 'all-in-one email+SMS',
    front,
    pids: [front.child.pid ?? 0],
    logs: true,
    body: twilio === undefined ? SEND_BODY : MIX_BODY,
    stop: async () => {
      await front.stop();
      await data.remove();
    },
  };
}

/** Gateway, router and email sender as three processes over the local Kafka, MongoDB and Redis. */
async function threeProcesses(smtpUrl: string): Promise<Topology | undefined> {
  if (!(await backendsUp(['kafka', 'mongo', 'redis']))) return undefined;
  const env = clusterEnv(smtpUrl);
  const store = new MongoDocumentStore(env.MONGODB_URI);
  await provisionerFor(store, loadAppConfig({})).execute({ apiKey: KEY });
  await store.close();
  const data = await tempDir('notify-bench-');
  const front = await startApp('gateway', { ...env, DATA_DIR: data.path });
  const workers = await Promise.all(['router', 'sender-email'].map((app) => startApp(app, env)));
  await sleep(5_000);
  return {
    name: '3 processes',
    front,
    pids: [front, ...workers].map((p) => p.child.pid ?? 0),
    logs: false,
    body: SEND_BODY,
    stop: async () => {
      await Promise.all([front, ...workers].map((p) => p.stop()));
      await data.remove();
    },
  };
}

async function main(): Promise<void> {
  build();
  const sink = new SmtpSink();
  const smtpUrl = await sink.start();
  const figures: Figure[] = [];
  try {
    const baseline = await bareFastify();
    figures.push({ name: 'baseline: bare Fastify, closed loop c=64', value: baseline, unit: 'req/s' });

    const single = await allInOne(smtpUrl);
    let best = 0;
    try {
      await sleep(SETTLE_MS);
      const idle = rss(single.pids[0] ?? 0);
      const found = await sustained(single, sink);
      best = found.rate;
      figures.push({
        name: `all-in-one: ${SUSTAIN_SECONDS} s sustained, flat backlog`,
        value: found.rate,
        unit: 'sends/s',
        baseline,
        note: `${goal(found.rate >= baseline * 0.25, '≥ 0.25x')}${found.run ? `; backlog every 10 s: ${found.run.backlog.filter((_, i) => i % 10 === 9).join(' → ')}` : ''}`,
      });
      if (found.run !== undefined) figures.push(...latencyFigures(`all-in-one ${found.rate}/s`, found.run));
      if (found.rate > 0) {
        const halfRate = Math.round(found.rate / 2);
        const half = await atRate(single, sink, halfRate, HALF_SECONDS);
        const p99 = percentile(half.mailMs, 99);
        figures.push(...latencyFigures(`all-in-one ${halfRate}/s (half)`, half));
        figures.push({
          name: `all-in-one ${halfRate}/s (half): 200 → email p99 against 250 ms`,
          value: p99,
          unit: 'ms',
          baseline: 250,
          note: goal(p99 <= 250, '≤ 1.00x'),
        });
      }
      const overloadRate = Math.max(found.rate, RAMP[0] ?? 400) * OVERLOAD_FACTOR;
      const watched = await watchLiveness(
        single.front,
        atRate(single, sink, overloadRate, OVERLOAD_SECONDS, { overload: true }),
      );
      const overload = watched.result;
      figures.push(
        {
          name: 'all-in-one idle: anonymous RSS',
          value: mib(idle.anon),
          unit: 'MiB',
          note: `RSS ${Math.round(mib(idle.total))} MiB`,
        },
        {
          name: `all-in-one at ${overloadRate}/s (${OVERLOAD_FACTOR}x) for ${OVERLOAD_SECONDS} s: anonymous RSS peak`,
          value: mib(overload.peakRss.anon),
          unit: 'MiB',
          baseline: mib(idle.anon),
          note: `${goal(overload.peakRss.anon <= idle.anon * 2.5, '≤ 2.5x idle')}; ${overload.accepted} accepted, ${overload.refused} refused; RSS incl. mapped files ${Math.round(mib(overload.peakRss.total))} MiB`,
        },
        {
          name: `all-in-one at ${overloadRate}/s: /health/live, slowest answer`,
          value: watched.maxMs,
          unit: 'ms',
          note: `${watched.failures} failed or slower than 2 s (goal: 0): ${watched.failures === 0 ? 'met' : 'MISSED'}`,
        },
      );
    } finally {
      await single.stop();
    }

    const twilio = new TwilioPeer({ keep: 1 });
    await twilio.start();
    const mixed = await allInOne(smtpUrl, twilio);
    try {
      await sleep(SETTLE_MS);
      const found = await sustained(mixed, new MixSink(sink, twilio));
      figures.push({
        name: `all-in-one, email+SMS mix: ${SUSTAIN_SECONDS} s sustained`,
        value: found.rate,
        unit: 'sends/s',
        baseline: best,
        note: `baseline: the email-only rate above; each send is one email and one SMS (Twilio peer, signed receipts posted back); ${twilio.deliveries()} SMS received`,
      });
      if (found.run !== undefined) figures.push(...latencyFigures(`email+SMS ${found.rate}/s`, found.run));
    } finally {
      await mixed.stop();
      await twilio.stop();
      sink.onArrival = undefined;
    }

    const cluster = await threeProcesses(smtpUrl);
    if (cluster === undefined) {
      figures.push({
        name: '3 processes over Kafka, MongoDB, Redis: skipped',
        value: 0,
        unit: '',
        note: 'start the backends with npm run infra:up',
      });
    } else {
      try {
        const found = await sustained(cluster, sink);
        figures.push({
          name: `3 processes over Kafka, MongoDB, Redis: ${SUSTAIN_SECONDS} s sustained`,
          value: found.rate,
          unit: 'sends/s',
          baseline: best,
          note: `baseline: all-in-one; ${goal(found.rate >= best, '≥ 1.00x')}`,
        });
        if (found.run !== undefined)
          figures.push(...latencyFigures(`3 processes ${found.rate}/s`, found.run));
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    await sink.stop();
  }
  report('e2e', 'open-loop offered rates, SMTP peer in the benchmark process, against bare Fastify', figures);
}

runBench(main);
