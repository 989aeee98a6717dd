import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;
const node = randomBytes(4).toString('hex');

/**
 * Unique, time-ordered ids: 12 hex digits of epoch ms, a 4-digit counter within the millisecond,
 * and a per-process random suffix. Sorting them sorts events of one process in creation order,
 * which the event log uses to break ties between events of the same millisecond.
 */
export function newEventId(now: number): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else {
    counter++;
  }
  return `${lastMs.toString(16).padStart(12, '0')}${counter.toString(16).padStart(4, '0')}${node}`;
}
