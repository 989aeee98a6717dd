import { checkClaim, checkDueAt, checkIncrement, checkTtl, parseCounter } from './arguments';

describe('coordination arguments', () => {
  it('accepts whole positive TTLs only, as Redis PX does', () => {
    expect(() => checkTtl(1)).not.toThrow();
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => checkTtl(bad)).toThrow(RangeError);
    }
  });

  it('accepts integer increments, negative ones included, as INCRBY does', () => {
    expect(() => checkIncrement(-3)).not.toThrow();
    expect(() => checkIncrement(0.5)).toThrow(RangeError);
    expect(() => checkIncrement(2 ** 60)).toThrow(RangeError);
  });

  it('requires a finite due time and claim time, a positive limit and lease', () => {
    expect(() => checkDueAt(-5.5)).not.toThrow();
    expect(() => checkDueAt(Number.NaN)).toThrow(RangeError);
    expect(() => checkClaim(1_000, 10, 30_000)).not.toThrow();
    expect(() => checkClaim(Number.POSITIVE_INFINITY, 10, 30_000)).toThrow(/now/);
    expect(() => checkClaim(1_000, 0, 30_000)).toThrow(/limit/);
    expect(() => checkClaim(1_000, 10, 0)).toThrow(/leaseMs/);
  });

  it('reads counters back from their stored text and refuses anything else', () => {
    expect(parseCounter('42')).toBe(42);
    expect(parseCounter('-7')).toBe(-7);
    for (const bad of ['', ' ', 'abc', '1.5', '1e300']) expect(() => parseCounter(bad)).toThrow(RangeError);
  });
});
