import { aScope, FakeClock } from '@notify/testing';
import type { CoordinationStore } from './cache.port';
import { EnvironmentCache } from './environment-cache';
import { ComponentChangesStore } from './stores/component-changes.store';

/** A coordination store whose announcements reach this process's listeners at once. */
function instantPubSub() {
  const listeners = new Map<string, Set<(message: string) => void>>();
  return {
    publish: async (channel: string, message: string) => {
      for (const listener of listeners.get(channel) ?? []) listener(message);
    },
    subscribe: async (channel: string, listener: (message: string) => void) => {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
      return async () => void set.delete(listener);
    },
  } as unknown as CoordinationStore;
}

describe('EnvironmentCache', () => {
  const scope = aScope();
  const other = aScope({ envId: 'env-2' });
  let clock: FakeClock;
  let changes: ComponentChangesStore;
  /** What the store holds, by `envId/key`, and how often each was read. */
  let stored: Map<string, string>;
  let reads: string[];
  let cache: EnvironmentCache<string | undefined, string>;

  beforeEach(async () => {
    clock = new FakeClock();
    changes = new ComponentChangesStore(instantPubSub());
    stored = new Map();
    reads = [];
    cache = new EnvironmentCache({
      changes,
      clock,
      load: async (at, key) => {
        reads.push(`${at.envId}/${key}`);
        return stored.get(`${at.envId}/${key}`);
      },
      keyOf: (key) => key,
    });
    await cache.listen();
  });

  it('reads each key of an environment once per 5 s, a missing one too, and again after that', async () => {
    stored.set(`${scope.envId}/a`, 'a1');
    expect(await cache.get(scope, 'a')).toBe('a1');
    expect(await cache.get(scope, 'b')).toBeUndefined();
    stored.set(`${scope.envId}/a`, 'a2');
    stored.set(`${scope.envId}/b`, 'b2');
    clock.advance(4_999);
    expect([await cache.get(scope, 'a'), await cache.get(scope, 'b')]).toEqual(['a1', undefined]);
    clock.advance(1);
    expect([await cache.get(scope, 'a'), await cache.get(scope, 'b')]).toEqual(['a2', 'b2']);
    expect(reads).toEqual([`${scope.envId}/a`, `${scope.envId}/b`, `${scope.envId}/a`, `${scope.envId}/b`]);
  });

  it('stales every key of an announced environment at once, and no other environment', async () => {
    for (const [at, value] of [
      [scope, 'v1'],
      [other, 'other v1'],
    ] as const) {
      stored.set(`${at.envId}/a`, value);
      stored.set(`${at.envId}/b`, value);
      await cache.get(at, 'a');
      await cache.get(at, 'b');
    }
    for (const at of [scope, other]) {
      stored.set(`${at.envId}/a`, 'v2');
      stored.set(`${at.envId}/b`, 'v2');
    }
    await changes.announce(scope);
    expect([await cache.get(scope, 'a'), await cache.get(scope, 'b')]).toEqual(['v2', 'v2']);
    expect([await cache.get(other, 'a'), await cache.get(other, 'b')]).toEqual(['other v1', 'other v1']);
    // Read again once, then trusted again.
    await cache.get(scope, 'a');
    expect(reads.filter((r) => r === `${scope.envId}/a`)).toHaveLength(2);
  });

  it('stales a read still under way when the change is announced: it may predate the change', async () => {
    let finish: (value: string) => void = () => undefined;
    const slow = new EnvironmentCache<string>({
      changes,
      clock,
      load: () =>
        reads.length === 0
          ? new Promise<string>((resolve) => {
              reads.push('slow');
              finish = resolve;
            })
          : (reads.push('fresh'), Promise.resolve('after the change')),
    });
    await slow.listen();
    const first = slow.get(scope);
    await changes.announce(scope);
    finish('before the change');
    expect(await first).toBe('before the change');
    expect(await slow.get(scope)).toBe('after the change');
    expect(await slow.get(scope)).toBe('after the change');
    expect(reads).toEqual(['slow', 'fresh']);
  });

  it('reads an entry again once this process forgets it, and keeps no failed read', async () => {
    stored.set(`${scope.envId}/a`, 'a1');
    await cache.get(scope, 'a');
    stored.set(`${scope.envId}/a`, 'a2');
    cache.forget(scope, 'a');
    expect(await cache.get(scope, 'a')).toBe('a2');

    let failing = true;
    const flaky = new EnvironmentCache<string>({
      changes,
      clock,
      load: async () => {
        if (failing) throw new Error('store unavailable');
        return 'read';
      },
    });
    await expect(flaky.get(scope)).rejects.toThrow('store unavailable');
    failing = false;
    expect(await flaky.get(scope)).toBe('read');
  });

  it('trusts entries read after an announcement, however long ago the announcement was', async () => {
    stored.set(`${scope.envId}/a`, 'a1');
    await changes.announce(scope);
    await cache.get(scope, 'a');
    clock.advance(3_000);
    await changes.announce(other);
    clock.advance(1_000);
    stored.set(`${scope.envId}/a`, 'a2');
    expect(await cache.get(scope, 'a')).toBe('a1');
    clock.advance(10_000);
    await changes.announce(other);
    expect(await cache.get(scope, 'a')).toBe('a2');
    expect(reads).toEqual([`${scope.envId}/a`, `${scope.envId}/a`]);
  });

  it('cannot be built for keyed values without keyOf, which would give every key one entry', async () => {
    const load = async (_scope: unknown, key: string) => key;
    // @ts-expect-error keyOf is required once values have a key
    const keyless = new EnvironmentCache<string, string>({ changes, clock, load });
    const keyed = new EnvironmentCache<string, string>({ changes, clock, load, keyOf: (key) => key });
    // What the type forbids: the first key read answers for every other.
    expect(await keyless.get(scope, 'a')).toBe('a');
    expect(await keyless.get(scope, 'b')).toBe('a');
    expect(await keyed.get(scope, 'a')).toBe('a');
    expect(await keyed.get(scope, 'b')).toBe('b');
  });
});
