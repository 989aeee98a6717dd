import { RedisKeys } from './redis.keys';

/** Redis Cluster hashes only the part between the first `{` and the next `}`, when it is not empty. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe('RedisKeys', () => {
  it('puts the keys of one queue in one cluster slot, whatever the queue is called', () => {
    for (const queue of ['sends', 'with}brace', 'with{brace', '', 'tenant:1/digest']) {
      const { due, items, claims } = new RedisKeys('notify:').queue(queue);
      expect(new Set([due, items, claims]).size).toBe(3);
      expect(hashTag(items)).toBe(hashTag(due));
      expect(hashTag(claims)).toBe(hashTag(due));
    }
  });

  it('puts the keys of one buffer pool in one cluster slot, apart from other pools', () => {
    const keys = new RedisKeys('notify:');
    for (const pool of ['acc/env', 'with}brace', 'with{brace']) {
      const { pool: total, items, ids, meta } = keys.buffer(pool, 'window/1');
      expect(new Set([total, items, ids, meta]).size).toBe(4);
      for (const key of [items, ids, meta]) expect(hashTag(key)).toBe(hashTag(total));
    }
    expect(hashTag(keys.buffer('a', 'w').items)).not.toBe(hashTag(keys.buffer('b', 'w').items));
  });

  it('spreads different queues over different tags', () => {
    const keys = new RedisKeys('notify:');
    expect(hashTag(keys.queue('a').due)).not.toBe(hashTag(keys.queue('b').due));
  });

  it('prefixes every key and channel, and keeps values, queues and channels apart', () => {
    const keys = new RedisKeys('p:');
    const names = [keys.value('x'), keys.queue('x').due, keys.channel('x')];
    for (const name of names) expect(name.startsWith('p:')).toBe(true);
    expect(new Set(names).size).toBe(3);
    expect(keys.value('{dq:x}:due')).not.toBe(keys.queue('x').due);
  });
});
