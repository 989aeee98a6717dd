import { maskSecret } from '@notify/util';
import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import { InvalidProviderSettingError, type ProviderSettingKind } from '../provider-settings/provider-setting';

/** An environment's APNs token-based authentication key (.p8) and the app it pushes to. */
export interface ApnsKey {
  readonly keyId: string;
  readonly teamId: string;
  /** The .p8 file's content: a PKCS#8 PEM EC P-256 key. */
  readonly key: string;
  /** The app's bundle id (the `apns-topic`). */
  readonly topic: string;
}

const APPLE_ID = /^[A-Z0-9]{10}$/;
const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

export const apnsKeySchema = z.strictObject({
  keyId: z.string().regex(APPLE_ID),
  teamId: z.string().regex(APPLE_ID),
  key: z.string().max(4 * 1024),
  topic: z.string().max(155).regex(BUNDLE_ID),
}) satisfies z.ZodType<ApnsKey>;

const FIX =
  'Give {KeyId, Key, TeamId, Topic}: the 10-character key id and the .p8 file of an APNs key (Apple Developer → Keys), your 10-character team id, and the app’s bundle id.';

const inputSchema = z.strictObject({
  KeyId: z.string().max(64),
  Key: z.string().max(4 * 1024),
  TeamId: z.string().max(64),
  Topic: z.string().max(256),
});

/** Parses an APNConfig as `PUT /settings/push/apn` carries it (the pingram client's field names). */
export function parseApnsKey(input: unknown): ApnsKey {
  const given = inputSchema.safeParse(input);
  if (!given.success)
    throw new InvalidProviderSettingError('apn', given.error.issues[0]?.message ?? 'not an object', FIX);
  const { KeyId, Key, TeamId, Topic } = given.data;
  if (!APPLE_ID.test(KeyId))
    throw new InvalidProviderSettingError('KeyId', 'expected 10 capital letters or digits', FIX);
  if (!APPLE_ID.test(TeamId))
    throw new InvalidProviderSettingError('TeamId', 'expected 10 capital letters or digits', FIX);
  if (!BUNDLE_ID.test(Topic))
    throw new InvalidProviderSettingError(
      'Topic',
      `"${Topic}" is not a bundle id (like com.example.app)`,
      FIX,
    );
  if (!isP256PrivateKey(Key))
    throw new InvalidProviderSettingError(
      'Key',
      'is not the content of a .p8 file (an EC P-256 private key in PEM form)',
      FIX,
    );
  return { keyId: KeyId, teamId: TeamId, key: Key, topic: Topic };
}

function isP256PrivateKey(pem: string): boolean {
  if (!pem.includes('-----BEGIN')) return false;
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/** The APNConfig as `GET /settings/push/apn` shows it: the key masked. */
export const maskedApnConfig = (key: ApnsKey) => ({
  KeyId: key.keyId,
  Key: `-----BEGIN PRIVATE KEY-----\n${maskSecret(key.key.replace(/-----[^-]+-----|\s/g, ''))}\n-----END PRIVATE KEY-----`,
  TeamId: key.teamId,
  Topic: key.topic,
});

export const apnsKeySetting: ProviderSettingKind<ApnsKey> = {
  name: 'apn',
  field: 'apn',
  parse: parseApnsKey,
  stored: apnsKeySchema,
  destinations: () => [],
  present: (key) => `${key.topic}, key ${key.keyId} of team ${key.teamId}, key ••••`,
};
