import { Inject, Injectable } from '@nestjs/common';
import { mergePreferences, type TenantScope, type UserPreference } from '@notify/domain';
import { Collections, type PreferencesDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';
import { scopeKey, scopeOf } from './scope';

@Injectable()
export class PreferenceRepository {
  private readonly preferences: DocumentCollection<PreferencesDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.preferences = store.collection(Collections.preferences);
  }

  async get(scope: TenantScope, userId: string): Promise<UserPreference[]> {
    const doc = await this.preferences.get([...scopeKey(scope), userId]);
    return doc?.preferences ?? [];
  }

  async update(
    scope: TenantScope,
    userId: string,
    updates: readonly UserPreference[],
    now: string,
  ): Promise<UserPreference[]> {
    const doc = await this.preferences.modify([...scopeKey(scope), userId], (current) => ({
      ...scopeOf(scope),
      userId,
      preferences: mergePreferences(current?.preferences ?? [], updates),
      updatedAt: now,
    }));
    return doc?.preferences ?? [];
  }

  delete(scope: TenantScope, userId: string): Promise<boolean> {
    return this.preferences.remove([...scopeKey(scope), userId]);
  }
}
