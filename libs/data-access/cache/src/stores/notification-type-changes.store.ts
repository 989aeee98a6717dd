import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';
import { EnvironmentChangesStore } from './environment-changes.store';

/**
 * Announcements that an environment's notification types or their templates changed (the gateway
 * announces on every write of either; every router listens): its cached types and templates are
 * staled on every replica, so sends see the change within moments (the announcement travels
 * apart from the sends, so one already on its way may still use the old ones).
 */
@Injectable()
export class NotificationTypeChangesStore extends EnvironmentChangesStore {
  constructor(@Inject(COORDINATION) coordination: CoordinationStore) {
    super(coordination, 'types/changed');
  }
}
