/**
 * Where the time comes from. Services read the system clock; a unit test passes a clock it moves
 * itself, so a rule about time (quiet hours, a digest window, a retry deadline) is tested without
 * sleeping. Milliseconds since the epoch, as `Date.now()`.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
