import { parentPort } from 'node:worker_threads';

/** What a pool sends a thread: one call. */
export interface ThreadRequest {
  readonly id: number;
  readonly request: unknown;
}

/** An error as it crosses threads: its name, message, stack and own primitive fields (codes, replies). */
export interface ThreadError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly fields: Readonly<Record<string, string | number | boolean>>;
}

/** What a thread answers: the call's result, or why it failed. */
export type ThreadReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: ThreadError };

/** What a thread sends once, when its script has loaded and it serves calls. */
interface ThreadReady {
  readonly ready: true;
}

export type ThreadMessage = ThreadReply | ThreadReady;

export const isReady = (message: ThreadMessage): message is ThreadReady => 'ready' in message;

/**
 * Structured cloning keeps an error's message but drops the fields callers classify it by (an SMTP
 * reply code, a Node error code), so errors cross as their name, message and primitive fields.
 */
export function describeError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  }
  return {
    name: error.name,
    message: error.message,
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
    fields,
  };
}

/** The error a thread reported, rebuilt on the calling side with the same name and fields. */
export function reviveError(described: ThreadError): Error {
  const error = new Error(described.message);
  Object.assign(error, described.fields);
  error.name = described.name;
  // Where it failed, in the thread (the calling side's stack says only that a reply came).
  if (described.stack !== undefined) error.stack = described.stack;
  return error;
}

/**
 * Runs in a pool's thread: answers every call with `handle`, one reply per call, calls running
 * concurrently (handlers that wait on I/O overlap, like on any event loop). Tells the pool it is
 * ready: its module, and everything that imported, loaded.
 */
export function serveThread<Request, Response>(handle: (request: Request) => Promise<Response>): void {
  const port = parentPort;
  if (port === null) throw new Error('serveThread runs in a worker thread only');
  port.on('message', ({ id, request }: ThreadRequest) => {
    handle(request as Request).then(
      (value) => port.postMessage({ id, ok: true, value } satisfies ThreadReply),
      (error: unknown) =>
        port.postMessage({ id, ok: false, error: describeError(error) } satisfies ThreadReply),
    );
  });
  port.postMessage({ ready: true } satisfies ThreadReady);
}
