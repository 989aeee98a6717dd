import { Inject, Injectable } from '@nestjs/common';
import {
  type EmailSuppressionStatus,
  mergeUserFields,
  type TenantScope,
  type User,
  type UserFields,
} from '@notify/domain';
import { Collections, type UserDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';
import { scopeKey, scopeOf, unscoped } from './scope';

export interface UserPage {
  readonly users: User[];
  /** Pass back as `after` for the next page; absent on the last page. */
  readonly next?: string;
}

@Injectable()
export class UserRepository {
  private readonly users: DocumentCollection<UserDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.users = store.collection(Collections.users);
  }

  /** Creates or updates a user (spec 4.3 identify); tokens merge per device, see mergeUserFields. */
  async identify(
    scope: TenantScope,
    id: string,
    fields: UserFields,
    now: string,
    seen = true,
  ): Promise<User> {
    const stored = await this.users.modify([...scopeKey(scope), id], (current) => ({
      ...current,
      ...mergeUserFields(current, fields),
      ...scopeOf(scope),
      id,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
      ...(seen ? { lastSeenTime: now } : {}),
    }));
    if (stored === undefined) throw new Error('identify stored nothing');
    return unscoped(stored);
  }

  /**
   * Forgets push tokens and web push subscriptions a push service says are dead (by token, by
   * endpoint), atomically against concurrent identifies; answers how many were removed.
   */
  async removePushTargets(
    scope: TenantScope,
    id: string,
    dead: { readonly tokens?: readonly string[]; readonly endpoints?: readonly string[] },
  ): Promise<number> {
    const tokens = new Set(dead.tokens ?? []);
    const endpoints = new Set(dead.endpoints ?? []);
    let removed = 0;
    await this.users.modify([...scopeKey(scope), id], (current) => {
      if (current === undefined) return undefined;
      const pushTokens = current.pushTokens?.filter((t) => !tokens.has(t.token));
      const webPushTokens = current.webPushTokens?.filter((t) => !endpoints.has(t.sub.endpoint));
      removed =
        (current.pushTokens?.length ?? 0) -
        (pushTokens?.length ?? 0) +
        (current.webPushTokens?.length ?? 0) -
        (webPushTokens?.length ?? 0);
      if (removed === 0) return undefined;
      return {
        ...current,
        ...(pushTokens !== undefined ? { pushTokens } : {}),
        ...(webPushTokens !== undefined ? { webPushTokens } : {}),
      };
    });
    return removed;
  }

  /**
   * Sets (or, with undefined, lifts) a user's email suppression; answers whether the user exists
   * (and, when lifting, whether there was one to lift).
   */
  async setEmailSuppression(
    scope: TenantScope,
    id: string,
    status: EmailSuppressionStatus | undefined,
  ): Promise<boolean> {
    let changed = false;
    await this.users.modify([...scopeKey(scope), id], (current) => {
      if (current === undefined || (status === undefined && current.emailSuppressionStatus === undefined))
        return undefined;
      changed = true;
      const { emailSuppressionStatus: _lifted, ...rest } = current;
      return status === undefined ? rest : { ...rest, emailSuppressionStatus: status };
    });
    return changed;
  }

  async get(scope: TenantScope, id: string): Promise<User | undefined> {
    const doc = await this.users.get([...scopeKey(scope), id]);
    return doc === undefined ? undefined : unscoped(doc);
  }

  async list(scope: TenantScope, limit: number, after?: string): Promise<UserPage> {
    const docs = await this.users.list(scopeKey(scope), { after, limit: limit + 1 });
    const page = docs.slice(0, limit).map(unscoped);
    return docs.length > limit ? { users: page, next: page.at(-1)?.id } : { users: page };
  }

  delete(scope: TenantScope, id: string): Promise<boolean> {
    return this.users.remove([...scopeKey(scope), id]);
  }
}
