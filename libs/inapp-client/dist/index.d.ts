/**
 * Browser client for the in-app inbox: the end-user REST API (`/{clientId}/users/{userId}/…`) and
 * the WebSocket that pushes new items. No runtime dependencies; `fetch` and `WebSocket` are the
 * browser's unless injected.
 */
import type { InAppClient, InitOptions } from './types.js';
export type * from './types.js';
/** A non-2xx answer; `body` is the parsed JSON (usually `{message, code?, fix?}`) or the raw text. */
export declare class InAppClientError extends Error {
    readonly status: number;
    readonly body: unknown;
    constructor(status: number, body: unknown);
}
export declare function init(options: InitOptions): InAppClient;
