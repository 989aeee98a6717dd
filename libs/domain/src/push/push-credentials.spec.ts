import { generateKeyPairSync } from 'node:crypto';
import { maskedApnConfig, parseApnsKey } from './apns-key';
import { maskedFcmConfig, parseFcmServiceAccount } from './fcm-service-account';
import { InvalidProviderSettingError } from '../provider-settings/provider-setting';

const pem = (type: 'rsa' | 'ec') =>
  (type === 'rsa'
    ? generateKeyPairSync('rsa', { modulusLength: 2048 })
    : generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  ).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

const rsa = pem('rsa');
const ec = pem('ec');

const keyFile = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'my-app-1234',
    private_key_id: 'abcdef0123456789',
    private_key: rsa,
    client_email: 'firebase-adminsdk@my-app-1234.iam.gserviceaccount.com',
    ...fields,
  });

const problem = (parse: () => unknown) => {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidProviderSettingError);
    return (error as Error).message;
  }
  throw new Error('parsed');
};

describe('FCM service account', () => {
  it('keeps what firebase-admin needs and shows the private key masked', () => {
    const account = parseFcmServiceAccount(keyFile());
    expect(account).toEqual({
      projectId: 'my-app-1234',
      clientEmail: 'firebase-adminsdk@my-app-1234.iam.gserviceaccount.com',
      privateKey: rsa,
      privateKeyId: 'abcdef0123456789',
    });
    const shown = maskedFcmConfig(account);
    expect(shown).not.toContain(rsa.split('\n')[1]);
    expect(JSON.parse(shown)).toMatchObject({ project_id: 'my-app-1234', private_key_id: '••••6789' });
  });

  it.each([
    ['not json', '{', 'is not JSON'],
    ['wrong type', keyFile({ type: 'authorized_user' }), 'type must be "service_account"'],
    ['no key', keyFile({ private_key: undefined }), 'private_key is missing'],
    [
      'broken key',
      keyFile({ private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }),
      'not an RSA private key',
    ],
    ['EC key', keyFile({ private_key: ec }), 'not an RSA private key'],
    ['bad project', keyFile({ project_id: 'X' }), 'is not a project id'],
    ['too large', ' '.repeat(20_000), 'larger than'],
  ])('says what is wrong with %s', (_, input, message) => {
    expect(problem(() => parseFcmServiceAccount(input))).toContain(message);
  });
});

describe('APNs key', () => {
  const config = { KeyId: 'ABC123DEFG', Key: ec, TeamId: 'TEAM123456', Topic: 'com.example.app' };

  it('keeps the key and shows it masked', () => {
    const key = parseApnsKey(config);
    expect(key).toEqual({ keyId: 'ABC123DEFG', key: ec, teamId: 'TEAM123456', topic: 'com.example.app' });
    const shown = maskedApnConfig(key);
    expect(shown).toMatchObject({ KeyId: 'ABC123DEFG', TeamId: 'TEAM123456', Topic: 'com.example.app' });
    expect(shown.Key).not.toContain(ec.split('\n')[1]);
  });

  it.each([
    ['an RSA key', { ...config, Key: rsa }, 'is not the content of a .p8 file'],
    ['garbage', { ...config, Key: 'nope' }, 'is not the content of a .p8 file'],
    ['a short key id', { ...config, KeyId: 'abc' }, 'KeyId'],
    ['a bad bundle id', { ...config, Topic: 'app' }, 'is not a bundle id'],
    ['a missing field', { KeyId: 'ABC123DEFG' }, 'apn'],
  ])('says what is wrong with %s', (_, input, message) => {
    expect(problem(() => parseApnsKey(input))).toContain(message);
  });
});
