import { tempDir } from '@notify/testing';
import type { CollectionDefinition } from '../document-store.port';
import { EmbeddedDocumentStore } from './embedded.document-store';

type Counter = { id: string };

const counters: CollectionDefinition<Counter> = { name: 'counters', key: ['id'] };
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('EmbeddedDocumentStore', () => {
  it('closes while writes keep arriving: each write is committed or refused, none is left pending', async () => {
    const dir = await tempDir('notify-store-close-');
    const store = new EmbeddedDocumentStore(dir.path);
    const collection = store.collection(counters);
    const outcomes: Promise<'committed' | 'refused'>[] = [];
    let writing = true;
    let next = 0;
    const writer = (async () => {
      while (writing) {
        outcomes.push(
          collection.insert({ id: String(next++) }).then(
            () => 'committed',
            () => 'refused',
          ),
        );
        await tick();
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 30));
    await store.close();
    writing = false;
    await writer;
    const settled = await Promise.all(outcomes);
    const committed = settled.filter((outcome) => outcome === 'committed').length;
    expect(committed).toBeGreaterThan(0);
    expect(settled.slice(committed)).not.toContain('committed');
    expect(settled.length).toBeGreaterThan(committed);

    const reopened = new EmbeddedDocumentStore(dir.path);
    const stored = reopened.collection(counters);
    for (let id = 0; id < settled.length; id++) {
      expect(await stored.get([String(id)])).toEqual(id < committed ? { id: String(id) } : undefined);
    }
    await reopened.close();
    await dir.remove();
  });
});
