import type { TenantScope } from '@notify/domain';
import type { EventPosition } from '@notify/event-log';
import { InvalidRequestError } from '@notify/util';
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The last millisecond the event log's times (DateTime64(3)) can hold; a later one cannot be queried. */
const LATEST_EVENT_TIME = Date.UTC(2299, 11, 31, 23, 59, 59, 999);

/** What a cursor carries: the time and id of the last event of the page it continues. */
const positionSchema = z.tuple([
  z.number().int().nonnegative().max(LATEST_EVENT_TIME),
  z.string().min(1).max(200),
]);

/**
 * The digest binds a cursor to its environment and catches one that was edited or cut. A cursor
 * forged with a fresh digest gains nothing: a page never leaves the caller's environment.
 */
const digestOf = (scope: TenantScope, payload: string) =>
  createHash('sha256')
    .update(`${scope.accountId}\0${scope.envId}\0${payload}`)
    .digest('base64url')
    .slice(0, 22);

/** `GET /logs`'s `nextCursor`: opaque to the caller, `<base64url JSON>.<digest>`. */
export function encodeLogsCursor(scope: TenantScope, position: EventPosition): string {
  const payload = Buffer.from(JSON.stringify([position.time, position.eventId])).toString('base64url');
  return `${payload}.${digestOf(scope, payload)}`;
}

/** The position a cursor continues from; one this environment was not given is a 400. */
export function decodeLogsCursor(scope: TenantScope, cursor: string): EventPosition {
  const [payload = '', digest, ...rest] = cursor.split('.');
  if (rest.length === 0 && digest === digestOf(scope, payload)) {
    const position = positionSchema.safeParse(parseJson(Buffer.from(payload, 'base64url').toString('utf8')));
    if (position.success) return { time: position.data[0], eventId: position.data[1] };
  }
  throw new InvalidRequestError({
    code: 'INVALID_CURSOR',
    message: 'cursor is not a nextCursor this environment was given.',
    fix: 'Pass the nextCursor of the previous page unchanged, with a key of the same environment; leave cursor out for the first page.',
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
