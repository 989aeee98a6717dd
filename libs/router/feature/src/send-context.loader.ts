import { Injectable } from '@nestjs/common';
import {
  deliveryFields,
  mergeUserFields,
  reachableChannels,
  type SendRequested,
  type TenantScope,
  type UserFields,
} from '@notify/domain';
import { PreferenceRepository, UserRepository } from '@notify/store';
import { EnvironmentSettingsCache } from './environment-settings-cache';
import { type RoutedType, TypeCache } from './type-cache';

type Environment = Awaited<ReturnType<EnvironmentSettingsCache['environment']>>;
type StoredUser = Awaited<ReturnType<UserRepository['get']>>;
type Preferences = Awaited<ReturnType<PreferenceRepository['get']>>;

/** What routing a send reads about its environment, user and type. */
export interface SendContext {
  readonly environment: Environment;
  readonly stored: StoredUser;
  /** The stored user merged with the send's `to`. */
  readonly user: UserFields;
}

const iso = (ms: number) => new Date(ms).toISOString();

function sameContact(stored: UserFields | undefined, merged: UserFields): boolean {
  const pick = (user: UserFields) => JSON.stringify(deliveryFields().map((field) => user[field]));
  return stored !== undefined && pick(stored) === pick(merged);
}

/** Reads (and, for a new send, records) the environment, user and notification type of a send. */
@Injectable()
export class SendContextLoader {
  constructor(
    private readonly environments: EnvironmentSettingsCache,
    private readonly users: UserRepository,
    private readonly types: TypeCache,
    private readonly preferences: PreferenceRepository,
  ) {}

  /**
   * For routing a send: its `to` is stored on the user when it changes a contact, and its type is
   * created on first use with the channels the send can reach.
   */
  async forRouting(
    request: SendRequested,
    now: number,
  ): Promise<SendContext & { type: RoutedType; preferences: Preferences }> {
    const scope = scopeOf(request);
    const { send } = request;
    const [environment, stored, existingType, preferences] = await Promise.all([
      this.environments.environment(scope),
      this.users.get(scope, send.userId),
      this.types.type(scope, send.notificationId),
      this.preferences.get(scope, send.userId),
    ]);
    const user = mergeUserFields(stored, send.recipient);
    if (!sameContact(stored, user))
      await this.users.identify(scope, send.userId, send.recipient, iso(now), false);
    const type =
      existingType ??
      (await this.types.ensure(scope, send.notificationId, reachableChannels(send, user), iso(now)));
    return { environment, stored, user, type, preferences };
  }

  /** For a released digest: records nothing, and has no type when it was deleted meanwhile. */
  async forDigest(request: SendRequested): Promise<SendContext & { type: RoutedType | undefined }> {
    const scope = scopeOf(request);
    const [stored, type, environment] = await Promise.all([
      this.users.get(scope, request.send.userId),
      this.types.type(scope, request.send.notificationId),
      this.environments.environment(scope),
    ]);
    return { environment, stored, user: mergeUserFields(stored, request.send.recipient), type };
  }
}

const scopeOf = (request: SendRequested): TenantScope => ({
  accountId: request.accountId,
  envId: request.envId,
});
