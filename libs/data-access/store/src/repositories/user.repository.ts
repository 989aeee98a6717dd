import { Inject, Injectable } from '@nestjs/common';
import {
  type EmailSuppressionStatus,
  maskedSlackToken,
  mergeUserFields,
  type SlackToken,
  slackTokenSchema,
  type TenantScope,
  type User,
  type UserFields,
} from '@notify/domain';
import { SecretBox } from '@notify/platform';
import { isDeepStrictEqual } from 'node:util';
import { Collections, type UserDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';
import { scopeKey, scopeOf, unscoped } from './scope';

export interface UserPage {
  readonly users: User[];
  /** Pass back as `after` for the next page; absent on the last page. */
  readonly next?: string;
}

/** What the seal of a user's Slack token is bound to: a sealed token copied to another user does not open. */
const slackTokenContext = (scope: TenantScope, id: string) =>
  `${scope.accountId}/${scope.envId}/users/${id}/slackToken`;

/**
 * Users, scoped by environment. A user's Slack token is a credential like a provider setting's:
 * sealed with SECRETS_KEY at rest and masked in every record this repository answers; only
 * `slackToken()` opens it, for the code that calls Slack with it.
 */
@Injectable()
export class UserRepository {
  private readonly users: DocumentCollection<UserDoc>;

  constructor(
    @Inject(DOCUMENT_STORE) store: DocumentStore,
    private readonly box: SecretBox,
  ) {
    this.users = store.collection(Collections.users);
  }

  /** Creates or updates a user (`POST /users/{userId}`, identify); tokens merge per device, see mergeUserFields. */
  async identify(
    scope: TenantScope,
    id: string,
    fields: UserFields,
    now: string,
    seen = true,
  ): Promise<User> {
    const sealed = fields.slackToken === undefined ? {} : this.seal(scope, id, fields.slackToken);
    const stored = await this.users.modify([...scopeKey(scope), id], (current) => ({
      ...current,
      ...mergeUserFields(current, fields),
      ...sealed,
      ...scopeOf(scope),
      id,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
      ...(seen ? { lastSeenTime: now } : {}),
    }));
    if (stored === undefined) throw new Error('identify stored nothing');
    return presented(stored);
  }

  /**
   * The user's Slack token in full, for calling Slack with it; undefined when the user has none.
   * A token stored in plain text (before tokens were sealed) is sealed now.
   */
  async slackToken(scope: TenantScope, id: string): Promise<SlackToken | undefined> {
    const doc = await this.users.get([...scopeKey(scope), id]);
    if (doc?.slackToken === undefined) return undefined;
    if (doc.slackTokenSealed !== undefined)
      return slackTokenSchema.parse(
        JSON.parse(this.box.open(doc.slackTokenSealed, slackTokenContext(scope, id))),
      );
    const plain = doc.slackToken;
    const sealed = this.seal(scope, id, plain);
    await this.users.modify([...scopeKey(scope), id], (current) =>
      current !== undefined &&
      current.slackTokenSealed === undefined &&
      isDeepStrictEqual(current.slackToken, plain)
        ? { ...current, ...sealed }
        : undefined,
    );
    return plain;
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

  /** The user as the API shows it: the Slack token masked. */
  async get(scope: TenantScope, id: string): Promise<User | undefined> {
    const doc = await this.users.get([...scopeKey(scope), id]);
    return doc === undefined ? undefined : presented(doc);
  }

  async list(scope: TenantScope, limit: number, after?: string): Promise<UserPage> {
    const docs = await this.users.list(scopeKey(scope), { after, limit: limit + 1 });
    const page = docs.slice(0, limit).map(presented);
    return docs.length > limit ? { users: page, next: page.at(-1)?.id } : { users: page };
  }

  delete(scope: TenantScope, id: string): Promise<boolean> {
    return this.users.remove([...scopeKey(scope), id]);
  }

  private seal(
    scope: TenantScope,
    id: string,
    token: SlackToken,
  ): Pick<UserDoc, 'slackToken' | 'slackTokenSealed'> {
    return {
      slackToken: maskedSlackToken(token),
      slackTokenSealed: this.box.seal(JSON.stringify(token), slackTokenContext(scope, id)),
    };
  }
}

/** A stored user as reads show it: no scope, no sealed token, a plain-text (older) token masked. */
function presented(doc: UserDoc): User {
  const { slackTokenSealed, ...user } = unscoped(doc);
  return slackTokenSealed === undefined && user.slackToken !== undefined
    ? { ...user, slackToken: maskedSlackToken(user.slackToken) }
    : user;
}
