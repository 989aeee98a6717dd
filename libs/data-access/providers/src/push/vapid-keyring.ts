import { Injectable } from '@nestjs/common';
import { type TenantScope, type VapidKeys, vapidKeysSetting } from '@notify/domain';
import { ProviderSettings } from '@notify/provider-settings';
import { createECDH } from 'node:crypto';

/** A new VAPID key pair (RFC 8292: ECDSA on P-256), as web push libraries and browsers take it. */
export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // The private scalar comes without its leading zero bytes about once in 256 keys.
  const scalar = ecdh.getPrivateKey();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString('base64url'),
  };
}

/**
 * Each environment's VAPID keys: made with the environment (or on first use, for one made before
 * web push existed), sealed like every credential. Every replica and service gets the same pair.
 */
@Injectable()
export class VapidKeyring {
  constructor(private readonly settings: ProviderSettings) {}

  /** Undefined when the environment does not exist. */
  keysOf(scope: TenantScope): Promise<VapidKeys | undefined> {
    return this.settings.getOrCreate(scope, vapidKeysSetting, generateVapidKeys);
  }
}
