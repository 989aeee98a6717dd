import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOK_ENDPOINTS_CHANGED_CHANNEL } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';
import { EnvironmentChangesStore } from './environment-changes.store';

/**
 * Announcements that an environment's webhook endpoints changed (the gateway announces, every
 * dispatcher listens): a cached endpoint list is dropped at once instead of at its expiry.
 */
@Injectable()
export class WebhookEndpointChangesStore extends EnvironmentChangesStore {
  constructor(@Inject(COORDINATION) coordination: CoordinationStore) {
    super(coordination, WEBHOOK_ENDPOINTS_CHANGED_CHANNEL);
  }
}
