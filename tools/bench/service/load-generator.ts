// An HTTP load generator that runs as its own process (so its CPU is measurable and apart from
// the server's): keep-alive sockets, microsecond timing, closed loop (N concurrent clients) or
// open loop (a fixed offered rate, latency measured from the scheduled time, so a slow server
// cannot hide its queueing). Reads a JSON plan from argv[2], writes a JSON result to stdout.
import { Agent, request } from 'node:http';
import { percentile } from '../report';

export interface LoadPlan {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  /** `{{i}}` is replaced by the request's index. */
  readonly body?: string;
  readonly mode: 'closed' | 'open';
  readonly concurrency: number;
  readonly durationMs: number;
  /** Open loop: requests per second. */
  readonly rate?: number;
  /** Report each 2xx response's `trackingId` and completion time (epoch ms). */
  readonly recordResponses?: boolean;
}

export interface LoadResult {
  readonly requests: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly elapsedMs: number;
  /** CPU seconds the generator itself used during the run. */
  readonly cpuSeconds: number;
  readonly latencyMs: { p50: number; p95: number; p99: number; max: number };
  readonly responses?: [trackingId: string, doneAt: number][];
}

async function run(plan: LoadPlan): Promise<LoadResult> {
  const url = new URL(plan.url);
  const agent = new Agent({
    keepAlive: true,
    maxSockets: plan.concurrency,
    maxFreeSockets: plan.concurrency,
  });
  const latencies: number[] = [];
  const responses: [string, number][] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let index = 0;

  const once = (i: number, startedAt: bigint): Promise<void> =>
    new Promise((resolve) => {
      const body = plan.body?.replaceAll('{{i}}', String(i));
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: plan.method,
          agent,
          headers: { ...plan.headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            latencies.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) {
              ok++;
              if (plan.recordResponses) {
                const trackingId = (JSON.parse(Buffer.concat(chunks).toString()) as { trackingId?: string })
                  .trackingId;
                if (trackingId) responses.push([trackingId, Date.now()]);
              }
            } else non2xx++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });

  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(plan.durationMs) * 1_000_000n;
  if (plan.mode === 'closed') {
    await Promise.all(
      Array.from({ length: plan.concurrency }, async () => {
        while (process.hrtime.bigint() < deadline) await once(index++, process.hrtime.bigint());
      }),
    );
  } else {
    const interval = 1e9 / (plan.rate ?? 1);
    const inflight = new Set<Promise<void>>();
    for (;;) {
      const now = process.hrtime.bigint();
      if (now >= deadline) break;
      const due = Math.floor(Number(now - started) / interval);
      while (index <= due) {
        const scheduled = started + BigInt(Math.round(index * interval));
        const pending = once(index++, scheduled);
        inflight.add(pending);
        void pending.then(() => inflight.delete(pending));
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(inflight);
  }
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length + errors,
    ok,
    non2xx,
    errors,
    elapsedMs,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    latencyMs: {
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? Number.NaN,
    },
    ...(plan.recordResponses ? { responses } : {}),
  };
}

if (require.main === module) {
  const plan = JSON.parse(process.argv[2] ?? '{}') as LoadPlan;
  run(plan).then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (error: unknown) => {
      process.stderr.write(String(error));
      process.exit(1);
    },
  );
}
