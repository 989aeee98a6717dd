import { tempDir, testBackends, uniqueName } from '@notify/testing';
import type { DocumentStore } from '../document-store.port';
import { EmbeddedDocumentStore } from '../embedded/embedded.document-store';
import { MongoDocumentStore } from '../mongo/mongo.document-store';

export interface StoreLocation {
  readonly adapter: 'embedded' | 'mongodb';
  /** Embedded: the data directory. MongoDB: the connection string with a database of its own. */
  readonly where: string;
  cleanup(): Promise<void>;
}

export async function newStoreLocation(adapter: StoreLocation['adapter']): Promise<StoreLocation> {
  if (adapter === 'embedded') {
    const dir = await tempDir('notify-store-');
    return { adapter, where: dir.path, cleanup: dir.remove };
  }
  const uri = new URL(testBackends.mongoUri);
  uri.pathname = `/${uniqueName('ct').replace(/-/g, '_')}`;
  return { adapter, where: uri.toString(), cleanup: () => Promise.resolve() };
}

export function openStore(location: StoreLocation): DocumentStore {
  return location.adapter === 'embedded'
    ? new EmbeddedDocumentStore(location.where)
    : new MongoDocumentStore(location.where);
}
