import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';
import { EnvironmentChangesStore } from './environment-changes.store';

/**
 * Announcements that an environment's routing settings changed (the gateway announces on every
 * update of the environment through the API: its disabled channels, its tracking switch; every
 * router listens): its cached settings are staled on every replica, so sends are routed by the
 * new ones within moments. Other writers of the environment document do not announce here:
 * routers cache none of what they write (provider settings announce on their own channel, see
 * ProviderSettingsChangesStore).
 */
@Injectable()
export class EnvironmentSettingsChangesStore extends EnvironmentChangesStore {
  constructor(@Inject(COORDINATION) coordination: CoordinationStore) {
    super(coordination, 'environments/changed');
  }
}
