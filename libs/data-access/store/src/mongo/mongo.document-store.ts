import mongoose, { type Connection, type Model } from 'mongoose';
import {
  type CollectionDefinition,
  DEFAULT_PAGE_LIMIT,
  type Doc,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
  type Page,
} from '../document-store.port';
import { REVISION, schemaFor } from './mongo.schemas';

const DUPLICATE_KEY = 11000;
const MAX_MODIFY_ATTEMPTS = 20;
const HIDDEN = { _id: 0, [REVISION]: 0 } as const;

/**
 * A document as written, as `get` would read it back: what a write answers without a second
 * round trip (the driver adds `_id` to what it inserts).
 */
function stripped<T extends Doc>(written: Doc): T {
  const { _id: _inserted, [REVISION]: _revision, ...doc } = written;
  return doc as T;
}

function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/**
 * The MongoDB document store (mongoose). No multi-document transactions and no TTL indexes: every
 * write is a single-document operation, and read-modify-write uses a revision field (compare and
 * swap), which also works on MongoDB-wire servers without transactions.
 */
export class MongoDocumentStore implements DocumentStore {
  private readonly connection: Connection;
  private readonly models = new Map<string, Model<Doc>>();
  private readonly definitions = new Map<string, CollectionDefinition<Doc>>();

  constructor(uri: string) {
    this.connection = mongoose.createConnection(uri, { serverSelectionTimeoutMS: 5_000, autoIndex: false });
  }

  collection<T extends Doc>(definition: CollectionDefinition<T>): DocumentCollection<T> {
    let model = this.models.get(definition.name);
    if (model === undefined) {
      model = this.connection.model<Doc>(definition.name, schemaFor(definition.name));
      this.models.set(definition.name, model);
      this.definitions.set(definition.name, definition as unknown as CollectionDefinition<Doc>);
    }
    return new MongoCollection<T>(model as unknown as Model<T>, definition);
  }

  async ensureIndexes(): Promise<void> {
    await this.connection.asPromise();
    for (const [name, definition] of this.definitions) {
      const model = this.models.get(name);
      if (model === undefined) continue;
      await model.collection.createIndex(Object.fromEntries(definition.key.map((field) => [field, 1])), {
        unique: true,
        name: 'identity',
      });
      for (const field of definition.lookups ?? []) {
        await model.collection.createIndex({ [field]: 1 }, { name: `by_${field}` });
      }
    }
  }

  async probe(): Promise<void> {
    const connection = await this.connection.asPromise();
    await connection.db?.admin().ping();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

class MongoCollection<T extends Doc> implements DocumentCollection<T> {
  constructor(
    private readonly model: Model<T>,
    private readonly definition: CollectionDefinition<T>,
  ) {}

  async get(key: readonly string[]): Promise<T | undefined> {
    const doc = await this.model.findOne(this.filter(key), HIDDEN).lean<T>().exec();
    return doc ?? undefined;
  }

  async insert(doc: T): Promise<boolean> {
    return this.insertCast(await this.cast({ ...doc, [REVISION]: 1 }));
  }

  async modify(
    key: readonly string[],
    change: (current: T | undefined) => T | undefined,
  ): Promise<T | undefined> {
    const filter = this.filter(key);
    for (let attempt = 0; attempt < MAX_MODIFY_ATTEMPTS; attempt++) {
      const stored = await this.model.findOne(filter, { _id: 0 }).lean<T & { [REVISION]?: number }>().exec();
      const { [REVISION]: revision, ...current } = stored ?? {};
      const next = change(stored === null ? undefined : (current as T));
      if (next === undefined) return stored === null ? undefined : (current as T);
      this.assertSameKey(key, next);
      // A new document's revision is 1.
      const written = await this.cast({ ...next, [REVISION]: (revision ?? 0) + 1 });
      if (stored === null) {
        if (await this.insertCast(written)) return stripped<T>(written);
        continue;
      }
      const result = await this.model.collection.replaceOne({ ...filter, [REVISION]: revision }, written);
      if (result.matchedCount === 1) return stripped<T>(written);
    }
    throw new Error(`${this.definition.name}: too many concurrent writes to one document`);
  }

  async remove(key: readonly string[], when?: (current: T) => boolean): Promise<boolean> {
    const filter = this.filter(key);
    if (when === undefined) return (await this.model.deleteOne(filter).exec()).deletedCount === 1;
    // Compare-and-delete: the revision read is the one deleted, or another write came between.
    for (let attempt = 0; attempt < MAX_MODIFY_ATTEMPTS; attempt++) {
      const stored = await this.model.findOne(filter, { _id: 0 }).lean<T & { [REVISION]?: number }>().exec();
      if (stored === null) return false;
      const { [REVISION]: revision, ...current } = stored;
      if (!when(current as T)) return false;
      const result = await this.model.collection.deleteOne({ ...filter, [REVISION]: revision });
      if (result.deletedCount === 1) return true;
    }
    throw new Error(`${this.definition.name}: too many concurrent writes to one document`);
  }

  async list(prefix: readonly string[], page: Page = {}): Promise<T[]> {
    const limit = Math.min(page.limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
    const filter: Record<string, unknown> = this.filter(prefix);
    const rest = this.definition.key.slice(prefix.length);
    const next = rest[0];
    if (page.after !== undefined && next !== undefined) filter[next] = { $gt: page.after };
    const sort = Object.fromEntries(rest.map((field) => [field, 1 as const]));
    const docs = await this.model.find(filter, HIDDEN).sort(sort).limit(limit).lean<T[]>().exec();
    return docs;
  }

  async find(
    filter: Partial<Record<keyof T & string, string>>,
    limit = MAX_PAGE_LIMIT,
    ascending?: keyof T & string,
  ): Promise<T[]> {
    return this.model
      .find(filter as Record<string, string>, HIDDEN)
      .sort(ascending === undefined ? {} : { [ascending]: 1 })
      .limit(limit)
      .lean<T[]>()
      .exec();
  }

  async removeAll(prefix: readonly string[]): Promise<number> {
    const result = await this.model.deleteMany(this.filter(prefix)).exec();
    return result.deletedCount;
  }

  /** Inserts a cast document unless its key is taken (false). */
  private async insertCast(written: Doc): Promise<boolean> {
    try {
      await this.model.collection.insertOne(written);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Validates and casts a document through the schema (strict: unknown fields throw). */
  private async cast(doc: Doc): Promise<Doc> {
    const hydrated = new this.model(doc);
    await hydrated.validate();
    const { _id: _ignored, ...plain } = hydrated.toObject({ depopulate: true, minimize: true }) as Doc;
    return plain;
  }

  private filter(values: readonly string[]): Record<string, string> {
    return Object.fromEntries(values.map((value, index) => [this.definition.key[index], value]));
  }

  private assertSameKey(key: readonly string[], doc: T): void {
    if (this.definition.key.slice(0, key.length).some((field, index) => String(doc[field]) !== key[index])) {
      throw new Error(`modify must not change the key of a ${this.definition.name} document`);
    }
  }
}
