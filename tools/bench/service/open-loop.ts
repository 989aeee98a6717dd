// Open-loop runs against a running topology, shared by the e2e and cluster benchmarks: a fixed
// offered rate of sends for a fixed time (the load generator as its own process), each send seen
// to arrive at a peer, the backlog sampled each second, memory and the CPU of every measured
// process taken over the run (from the first request until the last send arrived).
import { sleep } from '@notify/testing';
import type { TwilioPeer } from '@notify/local-peer-twilio';
import { cpuSeconds, load, maxRss, type Proc, type Rss, rss, treeCpuSeconds } from './harness';
import type { SmtpSink } from './smtp-sink';

/** Where sends are seen to arrive: tracking id → when it arrived. */
export interface Sink {
  readonly arrivals: ReadonlyMap<string, number>;
}

/** Each send of the mix is one email and one SMS. */
export const MIX_BODY = JSON.stringify({
  type: 'bench-mix',
  to: { id: 'user-{{i}}', email: 'user-{{i}}@example.com', number: '+14155552671' },
  forceChannels: ['EMAIL', 'SMS'],
  email: { subject: 'Hello {{name}}', html: '<p>Hello {{name}}, this is message {{i}}.</p>' },
  sms: { message: 'Hello {{name}}, this is message {{i}}.' },
  parameters: { name: 'Bench' },
});

/** A send of the mix arrives when both its email and its SMS did. */
export class MixSink implements Sink {
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

/** A process whose CPU a run measures; `tree` counts its descendants too (a backend's wrapper). */
export interface Measured {
  readonly name: string;
  readonly pid: number;
  readonly tree?: boolean;
}

/** The services under test: `front` takes the HTTP load. */
export interface Topology {
  readonly name: string;
  readonly front: Proc;
  readonly key: string;
  /** The service processes (their memory is sampled). */
  readonly pids: readonly number[];
  /** Every process whose CPU is measured: the services and, in a cluster, the backends. */
  readonly measured: readonly Measured[];
  /** Whether GET /logs answers (the event log runs), for the send → log probes. */
  readonly logs: boolean;
  /** The send body of the load ({{i}} numbers the probes). */
  readonly body: string;
  stop(): Promise<void>;
}

export interface RunResult {
  readonly rate: number;
  readonly accepted: number;
  readonly refused: number;
  readonly mailMs: number[];
  readonly logMs: number[];
  /** Accepted but not yet delivered, sampled each second. */
  readonly backlog: number[];
  readonly drainMs: number;
  readonly peakRss: Rss;
  /** CPU seconds of each measured process over the run, from the first request to the last arrival. */
  readonly cpu: ReadonlyMap<string, number>;
}

/** Open-loop sizes: a ramp of rates (short steps) and the long run that decides. */
export interface Search {
  readonly ramp: readonly number[];
  readonly stepSeconds: number;
  readonly sustainSeconds: number;
}

export const mib = (bytes: number) => bytes / 2 ** 20;
export const sumRss = (pids: readonly number[]): Rss =>
  pids
    .map(rss)
    .reduce((a, b) => ({ total: a.total + b.total, anon: a.anon + b.anon }), { total: 0, anon: 0 });

const cpuNow = (measured: readonly Measured[]) =>
  new Map(measured.map((m) => [m.name, m.tree === true ? treeCpuSeconds(m.pid) : cpuSeconds(m.pid)]));

async function send(topology: Topology, i: number): Promise<string | undefined> {
  const response = await fetch(`${topology.front.baseUrl}/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${topology.key}` },
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
      headers: { authorization: `Bearer ${topology.key}` },
    });
    if (response.ok) {
      const { logs } = (await response.json()) as { logs: { email_sent_at?: string }[] };
      if (logs[0]?.email_sent_at !== undefined) return Date.now() - accepted;
    }
    await sleep(50);
  }
  return undefined;
}

/**
 * `rate` sends a second for `seconds`, open loop; then waits (90 s at most, not at all under
 * overload) until every accepted send arrived. Probes the log once a second unless `overload`.
 */
export async function atRate(
  topology: Topology,
  sink: Sink,
  rate: number,
  seconds: number,
  options: { overload?: boolean; probes?: boolean } = {},
): Promise<RunResult> {
  const overload = options.overload === true;
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
    topology.logs && !overload && options.probes !== false
      ? setInterval(
          () => probes.push(probe(topology, probes.length, started + seconds * 1000 + 60_000)),
          1_000,
        )
      : undefined;
  const cpuBefore = cpuNow(topology.measured);
  const result = await load(
    {
      url: `${topology.front.baseUrl}/send`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${topology.key}` },
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
  const deadline = Date.now() + (overload ? 0 : 90_000);
  while (Date.now() < deadline && responses.some(([id]) => !sink.arrivals.has(id))) await sleep(100);
  const drainMs = Date.now() - loadEnded;
  const cpuAfter = cpuNow(topology.measured);
  clearInterval(sampler);
  peakRss = maxRss(peakRss, sumRss(topology.pids));
  const mailMs = responses.flatMap(([id, doneAt]) => {
    const arrived = sink.arrivals.get(id);
    return arrived === undefined ? [] : [Math.max(0, arrived - doneAt)];
  });
  const logMs = (await Promise.all(probes)).filter((ms): ms is number => ms !== undefined);
  process.stderr.write(
    `  ${topology.name} ${rate}/s for ${seconds} s: ${responses.length} accepted, ${result.requests - result.ok} refused, ${mailMs.length} delivered, drained ${drainMs} ms after; backlog each second ${backlog.join(' ')}\n`,
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
    cpu: new Map([...cpuAfter].map(([name, after]) => [name, after - (cpuBefore.get(name) ?? 0)])),
  };
}

/** Keeps up: everything accepted was delivered within 2 s of the end, and the backlog stayed flat. */
export function keptUp(run: RunResult, seconds: number): boolean {
  const half = run.backlog[Math.floor(seconds / 2)] ?? 0;
  const end = run.backlog[seconds - 1] ?? 0;
  return (
    run.refused === 0 &&
    run.mailMs.length === run.accepted &&
    run.drainMs <= 2_000 &&
    end <= half + run.rate / 2
  );
}

/** The highest ramp rate held for `sustainSeconds` (falling back once to the rate below), or 0. */
export async function sustained(
  topology: Topology,
  sink: Sink,
  search: Search,
): Promise<{ rate: number; run?: RunResult }> {
  const passed: number[] = [];
  for (const rate of search.ramp) {
    const step = await atRate(topology, sink, rate, search.stepSeconds, { probes: false });
    if (!keptUp(step, search.stepSeconds)) break;
    passed.push(rate);
  }
  for (const candidate of passed.slice(-2).reverse()) {
    const run = await atRate(topology, sink, candidate, search.sustainSeconds);
    if (keptUp(run, search.sustainSeconds)) return { rate: candidate, run };
  }
  return { rate: 0 };
}
