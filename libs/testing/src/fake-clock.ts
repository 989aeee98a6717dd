import type { Clock } from '@notify/util';

/** A clock a unit test sets and moves: time passes only when the test says so. */
export class FakeClock implements Clock {
  constructor(private current = Date.parse('2026-01-05T09:00:00.000Z')) {}

  now(): number {
    return this.current;
  }

  /** Moves the clock forward by `ms` and answers the new time. */
  advance(ms: number): number {
    this.current += ms;
    return this.current;
  }

  set(at: number | string): void {
    this.current = typeof at === 'string' ? Date.parse(at) : at;
  }
}
