import { maskSecret } from '@notify/util';
import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import { InvalidProviderSettingError, type ProviderSettingKind } from '../provider-settings/provider-setting';

/** An environment's Firebase service account: what its FCM pushes are sent with (FCM HTTP v1). */
export interface FcmServiceAccount {
  readonly projectId: string;
  readonly clientEmail: string;
  /** PKCS#8 PEM, as Google's JSON key file has it. */
  readonly privateKey: string;
  readonly privateKeyId?: string;
}

const PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const EMAIL = /^[^\s@]{1,64}@[A-Za-z0-9.-]{1,253}$/;
/** A service-account key file is about 2.3 KB; anything much larger is not one. */
const MAX_CONFIG_BYTES = 16 * 1024;

export const fcmServiceAccountSchema = z.strictObject({
  projectId: z.string().regex(PROJECT_ID),
  clientEmail: z.string().regex(EMAIL),
  privateKey: z.string().max(8 * 1024),
  privateKeyId: z.string().max(64).optional(),
}) satisfies z.ZodType<FcmServiceAccount>;

const FIX =
  'Give the JSON key file of a Firebase service account (Firebase console → Project settings → Service accounts → Generate new private key), as a string in fcmConfig.';

const keyFileSchema = z.looseObject({
  type: z.literal('service_account', { message: 'type must be "service_account"' }),
  project_id: z.string({ message: 'project_id is missing' }).max(64),
  client_email: z.string({ message: 'client_email is missing' }).max(320),
  private_key: z.string({ message: 'private_key is missing' }).max(8 * 1024),
  private_key_id: z.string().max(64).optional(),
});

/** Parses the service-account JSON key file (a string, as `PUT /settings/push/fcm` carries it). */
export function parseFcmServiceAccount(input: unknown): FcmServiceAccount {
  if (typeof input !== 'string' || input.length === 0)
    throw new InvalidProviderSettingError('fcmConfig', 'expected the key file as a JSON string', FIX);
  if (Buffer.byteLength(input) > MAX_CONFIG_BYTES)
    throw new InvalidProviderSettingError('fcmConfig', `larger than ${MAX_CONFIG_BYTES} bytes`, FIX);
  let json: unknown;
  try {
    json = JSON.parse(input);
  } catch {
    throw new InvalidProviderSettingError('fcmConfig', 'is not JSON', FIX);
  }
  const file = keyFileSchema.safeParse(json);
  if (!file.success)
    throw new InvalidProviderSettingError('fcmConfig', file.error.issues[0]?.message ?? 'not an object', FIX);
  const { project_id, client_email, private_key, private_key_id } = file.data;
  if (!PROJECT_ID.test(project_id))
    throw new InvalidProviderSettingError('fcmConfig.project_id', `"${project_id}" is not a project id`, FIX);
  if (!EMAIL.test(client_email))
    throw new InvalidProviderSettingError('fcmConfig.client_email', 'is not an email address', FIX);
  if (!isRsaPrivateKey(private_key))
    throw new InvalidProviderSettingError(
      'fcmConfig.private_key',
      'is not an RSA private key in PEM form (-----BEGIN PRIVATE KEY-----)',
      FIX,
    );
  return {
    projectId: project_id,
    clientEmail: client_email,
    privateKey: private_key,
    ...(private_key_id !== undefined ? { privateKeyId: private_key_id } : {}),
  };
}

function isRsaPrivateKey(pem: string): boolean {
  if (!pem.includes('-----BEGIN')) return false;
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'rsa';
  } catch {
    return false;
  }
}

/** The key file as `GET /settings/push/fcm` shows it: the private key masked. */
export const maskedFcmConfig = (account: FcmServiceAccount): string =>
  JSON.stringify({
    type: 'service_account',
    project_id: account.projectId,
    client_email: account.clientEmail,
    ...(account.privateKeyId !== undefined ? { private_key_id: maskSecret(account.privateKeyId) } : {}),
    private_key: '-----BEGIN PRIVATE KEY-----\n••••\n-----END PRIVATE KEY-----\n',
  });

export const fcmServiceAccountSetting: ProviderSettingKind<FcmServiceAccount> = {
  name: 'fcm',
  field: 'fcmConfig',
  parse: parseFcmServiceAccount,
  stored: fcmServiceAccountSchema,
  // firebase-admin talks to Google's own hosts only.
  destinations: () => [],
  present: (account) => `${account.projectId}, ${account.clientEmail}, private key ••••`,
};
