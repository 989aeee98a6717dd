import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/** Gateways tell each other when a key is revoked, so no replica honours it from its cache. */
const REVOKED_KEYS_CHANNEL = 'api-keys.revoked';

/** Announcements of revoked API keys, by key hash, to every gateway. */
@Injectable()
export class ApiKeyRevocationsStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  announce(keyHash: string): Promise<void> {
    return this.coordination.publish(REVOKED_KEYS_CHANNEL, keyHash);
  }

  /** Resolves once subscribed; the returned function unsubscribes. */
  subscribe(listener: (keyHash: string) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(REVOKED_KEYS_CHANNEL, listener);
  }
}
