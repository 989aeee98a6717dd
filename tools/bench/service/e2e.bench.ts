// End to end, from a send's 200 to its email reaching the SMTP peer (and to GET /logs/{id} showing
// email_sent_at, one probe a second polled every 50 ms), against a bare Fastify server measured in the same run (closed loop, c=64):
// - the highest offered rate the all-in-one service keeps up with for 30 s (short steps find the
//   candidate, the long run decides: a slowly growing backlog shows only over time);
// - latency at half that rate;
// - ten times that rate for 10 s: anonymous memory against idle, /health/live polled throughout,
//   refusals (503 NOT_ACCEPTED) counted;
// The multi-process topology (CPU per message, highest rate held) and the email+SMS mix (CPU per
// send) are measured by the cluster benchmark.
// The goals of issue 11 are printed with each figure.
import { sleep, tempDir } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { type Figure, goal, percentile, report, runBench } from '../report';
import { sized } from '../smoke';
import { build, load, type Proc, rss, SEND_BODY, startApp, startBaseline } from './harness';
import { atRate, mib, type RunResult, type Search, sustained, type Topology } from './open-loop';
import { SmtpSink } from './smtp-sink';

const KEY = `notify_sk_${randomBytes(24).toString('base64url')}`;
const SEARCH: Search = {
  ramp: (process.env.BENCH_RAMP ?? sized('200,400,600,800,1000,1200,1600', '40')).split(',').map(Number),
  stepSeconds: Number(process.env.BENCH_STEP_SECONDS ?? sized(10, 1)),
  sustainSeconds: Number(process.env.BENCH_SUSTAIN_SECONDS ?? sized(30, 2)),
};
const HALF_SECONDS = sized(20, 1);
const OVERLOAD_FACTOR = 10;
const OVERLOAD_SECONDS = sized(10, 1);
/** How long a service is left alone after it started, before it is measured. */
const SETTLE_MS = sized(3_000, 500);

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

async function allInOne(smtpUrl: string): Promise<Topology> {
  const data = await tempDir('notify-bench-');
  const front = await startApp('all-in-one', {
    DATA_DIR: data.path,
    BOOTSTRAP_API_KEY: KEY,
    SMTP_URL: smtpUrl,
  });
  return {
    name: 'all-in-one',
    front,
    key: KEY,
    pids: [front.child.pid ?? 0],
    measured: [{ name: 'all-in-one', pid: front.child.pid ?? 0 }],
    logs: true,
    body: SEND_BODY,
    stop: async () => {
      await front.stop();
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
    try {
      await sleep(SETTLE_MS);
      const idle = rss(single.pids[0] ?? 0);
      const found = await sustained(single, sink, SEARCH);
      figures.push({
        name: `all-in-one: ${SEARCH.sustainSeconds} s sustained, flat backlog`,
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
      const overloadRate = Math.max(found.rate, SEARCH.ramp[0] ?? 400) * OVERLOAD_FACTOR;
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
  } finally {
    await sink.stop();
  }
  report('e2e', 'open-loop offered rates, SMTP peer in the benchmark process, against bare Fastify', figures);
}

runBench(main);
