import { type GroupCommit, lmdbGroupCommit, lockDataDir, openLmdb } from '@notify/platform';
import type { Database, RootDatabase } from 'lmdb';
import {
  type CollectionDefinition,
  DEFAULT_PAGE_LIMIT,
  type Doc,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
  type Page,
} from '../document-store.port';

type StoredKey = string[];

/** Drops `undefined` so a document reads back exactly as written (msgpack would keep the key). */
function clean<T extends Doc>(doc: T): T {
  return JSON.parse(JSON.stringify(doc)) as T;
}

/**
 * The embedded document store: LMDB (a memory-mapped, crash-safe B-tree) under the data
 * directory. Keys are `[collection, ...key fields]`, so a tenant's documents are one key range.
 */
export class EmbeddedDocumentStore implements DocumentStore {
  private readonly root: RootDatabase;
  private readonly documents: Database<Doc, StoredKey>;
  /** Writes of the same moment (a send's records, concurrent requests) share one commit. */
  private readonly writes: GroupCommit;
  private readonly unlock: () => void;
  private closed = false;

  constructor(path: string) {
    this.unlock = lockDataDir(path);
    this.root = openLmdb(path, { maxDbs: 2 });
    this.documents = this.root.openDB<Doc, StoredKey>({ name: 'documents' });
    this.writes = lmdbGroupCommit(this.root);
  }

  collection<T extends Doc>(definition: CollectionDefinition<T>): DocumentCollection<T> {
    return new EmbeddedCollection<T>(
      this.documents as unknown as Database<T, StoredKey>,
      definition,
      this.writes,
    );
  }

  ensureIndexes(): Promise<void> {
    return Promise.resolve();
  }

  probe(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the embedded document store is closed'));
    this.documents.get(['']);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writes.close();
    await this.root.close();
    this.unlock();
  }
}

class EmbeddedCollection<T extends Doc> implements DocumentCollection<T> {
  constructor(
    private readonly db: Database<T, StoredKey>,
    private readonly definition: CollectionDefinition<T>,
    private readonly writes: GroupCommit,
  ) {}

  get(key: readonly string[]): Promise<T | undefined> {
    return Promise.resolve(this.db.get(this.storedKey(key)));
  }

  insert(doc: T): Promise<boolean> {
    const key = this.keyOf(doc);
    return this.writes.add(() => {
      if (this.db.doesExist(key)) return false;
      this.db.putSync(key, clean(doc));
      return true;
    });
  }

  async modify(
    key: readonly string[],
    change: (current: T | undefined) => T | undefined,
  ): Promise<T | undefined> {
    const stored = this.storedKey(key);
    // The outcome is carried out of the write rather than returned: a write's result must be
    // provably not a promise, which a generic document type is not.
    let outcome: T | undefined;
    await this.writes.add(() => {
      const current = this.db.get(stored);
      const next = change(current);
      outcome = current;
      if (next === undefined) return;
      if (this.keyOf(next).join('\u0000') !== stored.join('\u0000')) {
        throw new Error(`modify must not change the key of a ${this.definition.name} document`);
      }
      outcome = clean(next);
      this.db.putSync(stored, outcome);
    });
    return outcome;
  }

  remove(key: readonly string[], when?: (current: T) => boolean): Promise<boolean> {
    const stored = this.storedKey(key);
    return this.writes.add(() => {
      if (when !== undefined) {
        const current = this.db.get(stored);
        if (current === undefined || !when(current)) return false;
      }
      return this.db.removeSync(stored);
    });
  }

  list(prefix: readonly string[], page: Page = {}): Promise<T[]> {
    const limit = Math.min(page.limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
    const base = this.storedKey(prefix);
    const start = page.after === undefined ? base : [...base, page.after];
    const results: T[] = [];
    // Keys sharing a prefix are contiguous in LMDB's order: walk from the prefix until it stops matching.
    for (const { key, value } of this.db.getRange({ start })) {
      if (!startsWith(key, base)) break;
      if (page.after !== undefined && key[base.length] === page.after) continue;
      results.push(value);
      if (results.length >= limit) break;
    }
    return Promise.resolve(results);
  }

  find(
    filter: Partial<Record<keyof T & string, string>>,
    limit = MAX_PAGE_LIMIT,
    ascending?: keyof T & string,
  ): Promise<T[]> {
    const entries = Object.entries(filter) as [string, string][];
    const results: T[] = [];
    for (const { key, value } of this.db.getRange({ start: [this.definition.name] })) {
      if (key[0] !== this.definition.name) break;
      if (entries.every(([field, expected]) => value[field] === expected)) results.push(value);
      // In another order than the key's, every match is read before the first `limit` are known.
      if (ascending === undefined && results.length >= limit) break;
    }
    if (ascending === undefined) return Promise.resolve(results);
    const order = (doc: T) => String(doc[ascending] ?? '');
    return Promise.resolve(results.sort((a, b) => order(a).localeCompare(order(b))).slice(0, limit));
  }

  removeAll(prefix: readonly string[]): Promise<number> {
    const base = this.storedKey(prefix);
    return this.writes.add(() => {
      let removed = 0;
      for (const key of this.db.getKeys({ start: base })) {
        if (!startsWith(key, base)) break;
        if (this.db.removeSync(key)) removed++;
      }
      return removed;
    });
  }

  private storedKey(values: readonly string[]): StoredKey {
    return [this.definition.name, ...values];
  }

  private keyOf(doc: T): StoredKey {
    return this.storedKey(this.definition.key.map((field) => String(doc[field])));
  }
}

function startsWith(key: readonly unknown[], prefix: readonly unknown[]): boolean {
  return prefix.every((value, index) => key[index] === value);
}
