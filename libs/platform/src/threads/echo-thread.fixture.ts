// A pool thread for thread-pool.spec: echoes, fails with fields, waits, or dies, as asked.
import { threadId } from 'node:worker_threads';
import { serveThread } from './thread-protocol';

export type EchoCall =
  | { readonly op: 'echo'; readonly value: unknown }
  | { readonly op: 'fail'; readonly code: string; readonly status: number }
  | { readonly op: 'wait'; readonly ms: number }
  | { readonly op: 'die' };

serveThread<EchoCall, unknown>(async (call) => {
  switch (call.op) {
    case 'echo':
      return { value: call.value, threadId };
    case 'fail':
      throw Object.assign(new RangeError('refused'), {
        code: call.code,
        status: call.status,
        skipped: { a: 1 },
      });
    case 'wait':
      await new Promise((resolve) => setTimeout(resolve, call.ms));
      return threadId;
    case 'die':
      return process.exit(3);
  }
});
