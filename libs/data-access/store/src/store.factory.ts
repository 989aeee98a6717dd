import type { AppConfig } from '@notify/platform';
import { join } from 'node:path';
import type { DocumentStore } from './document-store.port';
import { EmbeddedDocumentStore } from './embedded/embedded.document-store';
import { MongoDocumentStore } from './mongo/mongo.document-store';

export function createDocumentStore(config: AppConfig): DocumentStore {
  return config.store.driver === 'mongodb'
    ? new MongoDocumentStore(config.store.uri)
    : new EmbeddedDocumentStore(join(config.dataDir, 'documents'));
}
