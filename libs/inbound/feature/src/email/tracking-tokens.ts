import { Injectable } from '@nestjs/common';
import { readTrackingToken, trackingKey, type TrackingPayload } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import type { KeyObject } from 'node:crypto';

/** Reads the tokens the email sender signed (links, X-Notify-Ref), with the key derived from SECRETS_KEY. */
@Injectable()
export class TrackingTokens {
  private readonly key: KeyObject | undefined;

  constructor(@InjectConfig() config: AppConfig) {
    this.key = config.secrets.key === undefined ? undefined : trackingKey(config.secrets.key);
  }

  /** The token's payload when it is one of ours, of this kind. */
  read(token: string, kind: TrackingPayload['k']): TrackingPayload | undefined {
    const payload = this.key === undefined ? undefined : readTrackingToken(token, this.key);
    return payload?.k === kind ? payload : undefined;
  }
}
