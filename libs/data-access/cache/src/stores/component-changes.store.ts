import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';
import { EnvironmentChangesStore } from './environment-changes.store';

/**
 * Announcements that an environment's email components changed (the gateway announces on every
 * create, update and delete; every router listens): its cached components are dropped at once, so
 * the next render of every template that uses one sees the change, on every replica.
 */
@Injectable()
export class ComponentChangesStore extends EnvironmentChangesStore {
  constructor(@Inject(COORDINATION) coordination: CoordinationStore) {
    super(coordination, 'components/changed');
  }
}
