import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';
import { EnvironmentChangesStore } from './environment-changes.store';

/**
 * Announcements that an environment's provider settings changed (ProviderSettings announces after
 * every write of one: through the API, a re-seal with a rotated key, a generated setting, the
 * upgrade of a legacy relay; every process that sends or presents them listens): its cached
 * settings are staled on every replica, so deliveries use the new ones within moments.
 */
@Injectable()
export class ProviderSettingsChangesStore extends EnvironmentChangesStore {
  constructor(@Inject(COORDINATION) coordination: CoordinationStore) {
    super(coordination, 'provider-settings/changed');
  }
}
