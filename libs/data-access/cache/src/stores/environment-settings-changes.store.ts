import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';
import { EnvironmentChangesStore } from './environment-changes.store';

/**
 * Announcements that an environment's own settings changed (the gateway announces on every
 * update of the environment: its disabled channels, tracking, provider settings…; every router
 * listens): its cached environment is dropped at once, so the next send routes by the new
 * settings, on every replica.
 */
@Injectable()
export class EnvironmentSettingsChangesStore extends EnvironmentChangesStore {
  constructor(@Inject(COORDINATION) coordination: CoordinationStore) {
    super(coordination, 'environments/changed');
  }
}
