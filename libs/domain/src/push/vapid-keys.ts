import { z } from 'zod';
import type { ProviderSettingKind } from '../provider-settings/provider-setting';

/**
 * An environment's VAPID key pair (RFC 8292): made with the environment, the private key sealed
 * like every credential, the public key given to browsers as the `applicationServerKey`.
 */
export interface VapidKeys {
  /** The uncompressed P-256 point, base64url. */
  readonly publicKey: string;
  /** The private scalar, base64url. */
  readonly privateKey: string;
}

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .refine((value) => Buffer.from(value, 'base64url').length === bytes, `expected ${bytes} bytes`);

export const vapidKeysSchema = z.strictObject({
  publicKey: base64url(65),
  privateKey: base64url(32),
}) satisfies z.ZodType<VapidKeys>;

export const vapidKeysSetting: ProviderSettingKind<VapidKeys> = {
  name: 'vapid',
  field: 'vapid',
  // Made by the service, never given by a tenant: what is parsed is what was generated.
  parse: (input) => vapidKeysSchema.parse(input),
  stored: vapidKeysSchema,
  destinations: () => [],
  present: (keys) => `public key ${keys.publicKey}`,
};
