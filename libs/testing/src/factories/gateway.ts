import type { Environment } from '@notify/domain';
import { generateKeyPairSync } from 'node:crypto';

/** An environment of the factories' tenant (`aScope()`), in secure mode, nothing disabled. */
export const anEnvironment = (environment: Partial<Environment> = {}): Environment => ({
  accountId: 'acc-1',
  envId: 'env-1',
  title: 'Production',
  secret: 'hmac-secret',
  secureMode: true,
  disabledChannels: [],
  test: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...environment,
});

const privateKeyPem = (type: 'rsa' | 'ec') =>
  (type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 2048 })
    : generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  ).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

/** A Firebase service account key file (JSON text) with a fresh RSA key, as PUT /settings/push/fcm takes it. */
export const anFcmKeyFile = (fields: Record<string, unknown> = {}): string =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'my-app-1234',
    private_key_id: 'abcdef0123456789',
    private_key: privateKeyPem('rsa'),
    client_email: 'firebase-adminsdk@my-app-1234.iam.gserviceaccount.com',
    ...fields,
  });

/** An APNs key (.p8, a fresh P-256 key) with its ids, as PUT /settings/push/apn takes it. */
export const anApnsKey = (fields: Partial<Record<'KeyId' | 'Key' | 'TeamId' | 'Topic', string>> = {}) => ({
  KeyId: 'ABC123DEFG',
  Key: privateKeyPem('ec'),
  TeamId: 'TEAM123456',
  Topic: 'com.example.app',
  ...fields,
});
