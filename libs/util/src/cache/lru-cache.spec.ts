import { LruCache } from './lru-cache';

describe('LruCache', () => {
  it('evicts the least recently used entry beyond maxEntries, and reports it', () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, string>({ maxEntries: 2, onEvict: (v) => evicted.push(v) });
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(evicted).toEqual(['B']);
    cache.set('a', 'A2');
    expect(evicted).toEqual(['B', 'A']);
    cache.clear();
    expect(evicted).toEqual(['B', 'A', 'C', 'A2']);
    expect(cache.size).toBe(0);
  });

  it('bounds the total weight, and refuses an entry heavier than the whole cache', () => {
    const cache = new LruCache<string, string>({ maxEntries: 100, maxWeight: 10, weigh: (v) => v.length });
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    cache.set('c', 'xxxx');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.totalWeight).toBe(8);
    expect(cache.set('huge', 'x'.repeat(11))).toBe(false);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.totalWeight).toBe(8);
  });
});
