import { Inject, Injectable } from '@nestjs/common';
import {
  mergePreferences,
  type PreferenceTarget,
  type TenantScope,
  type UserPreference,
  withoutPreferences,
} from '@notify/domain';
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

  /** Merges the updates in; answers the stored choices after, and those they replaced. */
  async update(
    scope: TenantScope,
    userId: string,
    updates: readonly UserPreference[],
    now: string,
  ): Promise<{ preferences: UserPreference[]; previous: UserPreference[] }> {
    // `modify` re-runs the change on a conflict: its last run saw what this write replaced.
    let previous: UserPreference[] = [];
    const doc = await this.preferences.modify([...scopeKey(scope), userId], (current) => {
      previous = current?.preferences ?? [];
      return {
        ...scopeOf(scope),
        userId,
        preferences: mergePreferences(previous, updates),
        updatedAt: now,
      };
    });
    return { preferences: doc?.preferences ?? [], previous };
  }

  /** Forgets the user's choices for a type (or one sub-notification of it); how many went. */
  async remove(scope: TenantScope, userId: string, target: PreferenceTarget, now: string): Promise<number> {
    let removed = 0;
    await this.preferences.modify([...scopeKey(scope), userId], (current) => {
      if (current === undefined) return undefined;
      const kept = withoutPreferences(current.preferences, target);
      removed = current.preferences.length - kept.length;
      return removed === 0 ? undefined : { ...current, preferences: kept, updatedAt: now };
    });
    return removed;
  }

  delete(scope: TenantScope, userId: string): Promise<boolean> {
    return this.preferences.remove([...scopeKey(scope), userId]);
  }
}
