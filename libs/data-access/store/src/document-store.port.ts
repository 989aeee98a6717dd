/** A stored document: plain JSON-compatible fields. */
export type Doc = Record<string, unknown>;

export interface CollectionDefinition<T extends Doc> {
  readonly name: string;
  /**
   * The identity of a document: these fields' values together are unique (a unique index in
   * MongoDB, the key in the embedded store). Scope fields come first, so listing a tenant's
   * documents walks a key prefix.
   */
  readonly key: readonly (keyof T & string)[];
  /** Fields that `find` filters on by equality (indexed in MongoDB). */
  readonly lookups?: readonly (keyof T & string)[];
}

export interface Page {
  /** The value of the key field after the prefix from which to continue (exclusive). */
  readonly after?: string;
  readonly limit?: number;
}

/**
 * The primitive operations both document stores provide; repositories build on these so that
 * each aggregate's rules are written once. Every write touches a single document atomically.
 */
export interface DocumentCollection<T extends Doc> {
  get(key: readonly string[]): Promise<T | undefined>;
  /** Inserts unless a document with the same key exists; true when inserted. */
  insert(doc: T): Promise<boolean>;
  /**
   * Atomic read-modify-write: `change` gets the current document (or undefined) and returns the
   * new one, or undefined to leave it as is. Re-run on a concurrent write, so keep it pure.
   * Resolves to the stored document afterwards.
   */
  modify(key: readonly string[], change: (current: T | undefined) => T | undefined): Promise<T | undefined>;
  /**
   * Removes the document; with `when`, only if it holds for the document as stored at that moment
   * (an atomic compare-and-delete). True when removed.
   */
  remove(key: readonly string[], when?: (current: T) => boolean): Promise<boolean>;
  /** Documents whose key starts with `prefix`, in key order. */
  list(prefix: readonly string[], page?: Page): Promise<T[]>;
  /**
   * Documents whose `lookups` fields equal the filter's values; with `ascending`, the `limit` first
   * in that (string) field's order.
   */
  find(
    filter: Partial<Record<keyof T & string, string>>,
    limit?: number,
    ascending?: keyof T & string,
  ): Promise<T[]>;
  removeAll(prefix: readonly string[]): Promise<number>;
}

export interface DocumentStore {
  collection<T extends Doc>(definition: CollectionDefinition<T>): DocumentCollection<T>;
  /** Creates indexes for the registered collections (MongoDB); a no-op where keys are the index. */
  ensureIndexes(): Promise<void>;
  probe(): Promise<void>;
  close(): Promise<void>;
}

export const DOCUMENT_STORE = Symbol('DOCUMENT_STORE');

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1_000;
