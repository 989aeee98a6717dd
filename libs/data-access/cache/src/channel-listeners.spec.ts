import { testLogger } from '@notify/testing';
import { ChannelListeners } from './channel-listeners';

describe('ChannelListeners', () => {
  it('reports the first listener of a channel and the removal of its last', () => {
    const listeners = new ChannelListeners(testLogger());
    const a = listeners.add('news', () => undefined);
    const b = listeners.add('news', () => undefined);
    expect(a.first).toBe(true);
    expect(b.first).toBe(false);
    expect(a.remove()).toBe(false);
    expect(b.remove()).toBe(true);
    expect(listeners.add('news', () => undefined).first).toBe(true);
  });

  it('removes one subscription at a time even for the same function, idempotently', () => {
    const listeners = new ChannelListeners(testLogger());
    const received: string[] = [];
    const listener = (message: string) => received.push(message);
    const first = listeners.add('news', listener);
    listeners.add('news', listener);
    expect(first.remove()).toBe(false);
    expect(first.remove()).toBe(false);
    listeners.dispatch('news', 'hello');
    expect(received).toEqual(['hello']);
  });

  it('keeps delivering to the other listeners when one throws', () => {
    const listeners = new ChannelListeners(testLogger());
    const received: string[] = [];
    listeners.add('news', () => {
      throw new Error('broken listener');
    });
    listeners.add('news', (message) => received.push(message));
    listeners.add('other', (message) => received.push(`other:${message}`));
    listeners.dispatch('news', 'hello');
    expect(received).toEqual(['hello']);
  });

  it('does not let a stale remover end a channel that was subscribed again', () => {
    const listeners = new ChannelListeners(testLogger());
    const old = listeners.add('news', () => undefined);
    expect(old.remove()).toBe(true);
    const fresh = listeners.add('news', () => undefined);
    expect(old.remove()).toBe(false);
    expect(fresh.remove()).toBe(true);
  });
});
