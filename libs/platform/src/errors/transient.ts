/** Node's network error codes: the peer is unreachable, slow or went away, not that the request was wrong. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ESOCKETTIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Error classes of the backend drivers that mean "not reachable right now". */
const UNAVAILABLE_NAMES = new Set([
  // MongoDB driver and mongoose
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoTopologyClosedError',
  'MongoWriteConcernError',
  // ioredis
  'MaxRetriesPerRequestError',
  // kafkajs
  'KafkaJSConnectionError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSBrokerNotFound',
  'KafkaJSLockTimeout',
  // ours
  'ServiceUnavailableError',
  'DeliveryInProgressError',
]);

const UNAVAILABLE_MESSAGES = [
  /buffering timed out/i, // mongoose, while disconnected
  /connection is closed/i, // ioredis
  /^(LOADING|BUSY|TRYAGAIN|CLUSTERDOWN|MASTERDOWN|READONLY)\b/, // Redis replies during failover
  /socket hang up/i,
  /timeout exceeded/i, // @clickhouse/client
];

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  retriable?: unknown;
  transient?: unknown;
  cause?: unknown;
  hasErrorLabel?: (label: string) => boolean;
}

/**
 * Whether an error means a backend (store, cache, bus, event log) is unavailable for now, so the
 * same work should succeed once it is back: network errors, the drivers' connection and
 * server-selection errors, failover replies, anything marked `transient` or (kafkajs) `retriable`.
 * Follows `cause` chains. Everything else (bugs, invalid data) is not transient.
 */
export function isTransientError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const e = error as ErrorShape;
  if (e.transient === true || e.retriable === true) return true;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (
    typeof e.hasErrorLabel === 'function' &&
    (e.hasErrorLabel('RetryableWriteError') || e.hasErrorLabel('TransientTransactionError'))
  )
    return true;
  if (
    typeof e.message === 'string' &&
    UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(e.message as string))
  )
    return true;
  return isTransientError(e.cause, depth + 1);
}
