import { Injectable } from '@nestjs/common';
import { readTrackingToken, trackingKey, type TrackingPayload } from '@notify/domain';
import { type AppConfig, InjectConfig, readingKeys } from '@notify/platform';
import type { KeyObject } from 'node:crypto';

/**
 * Reads the tokens the email sender signed (links, X-Notify-Ref), with the keys derived from
 * SECRETS_KEY and SECRETS_PREVIOUS_KEYS: links in mail sent before a rotation keep working.
 */
@Injectable()
export class TrackingTokens {
  private readonly keys: readonly KeyObject[];

  constructor(@InjectConfig() config: AppConfig) {
    this.keys = readingKeys(config.secrets).map(trackingKey);
  }

  /** The token's payload when it is one of ours, of this kind. */
  read(token: string, kind: TrackingPayload['k']): TrackingPayload | undefined {
    const payload = readTrackingToken(token, this.keys);
    return payload?.k === kind ? payload : undefined;
  }
}
