// The push sender alone, draining a pre-filled `delivery.mobile_push` (one APNs token per push)
// into the APNs peer at STAGE_APNS_URL (run by stages.bench.ts in its own process, with the key in
// STAGE_APNS_KEY), with its real modules on the embedded backends: node-apn over one HTTP/2
// session. Baseline (`baseline` argument): raw HTTP/2 requests of the same pushes to the same peer
// on one session, 64 streams at a time, with one provider token signed up front.
import { type MobilePushJob, Topics } from '@notify/domain';
import { PushSenderModule } from '@notify/sender-push-feature';
import { randomBytes, randomUUID, sign } from 'node:crypto';
import { connect } from 'node:http2';
import {
  drain,
  drainSender,
  emit,
  keyOf,
  MESSAGES,
  prefill,
  runStage,
  type Tenant,
  workspace,
} from './stage-harness';

const APNS_URL = process.env.STAGE_APNS_URL ?? '';
const CA = process.env.STAGE_APNS_CA ?? '';
const KEY = JSON.parse(process.env.STAGE_APNS_KEY ?? '{}') as { keyId: string; teamId: string; key: string };
const TOPIC = 'com.example.bench';

const tokenOf = (i: number) => i.toString(16).padStart(64, 'a');

function pushJob(tenant: Tenant, i: number, now = Date.now()): MobilePushJob {
  return {
    trackingId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    accountId: tenant.accountId,
    envId: tenant.envId,
    receivedAt: now,
    test: false,
    notificationId: 'bench',
    userId: `user-${i}`,
    title: 'Hello Bench',
    message: `This is push ${i}.`,
    targets: [{ type: 'APN', token: tokenOf(i), environment: 'production' }],
  };
}

/** The provider token Apple expects (ES256, JOSE signature), made once. */
function providerToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'ES256', kid: KEY.keyId })}.${part({ iss: KEY.teamId, iat: Math.floor(Date.now() / 1000) })}`;
  const signature = sign('sha256', Buffer.from(input), { key: KEY.key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

async function baseline(): Promise<void> {
  const session = connect(APNS_URL, { ca: CA });
  const authorization = `bearer ${providerToken()}`;
  const push = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': `/3/device/${tokenOf(i)}`,
        authorization,
        'apns-topic': TOPIC,
        'apns-push-type': 'alert',
        'apns-priority': '10',
        'apns-id': randomUUID(),
        'apns-collapse-id': randomUUID(),
      });
      stream.on('response', (headers) => {
        if (headers[':status'] !== 200) reject(new Error(`APNs peer answered ${String(headers[':status'])}`));
      });
      stream.on('error', reject);
      stream.on('end', resolve);
      stream.resume();
      stream.end(JSON.stringify({ aps: { alert: { title: 'Hello Bench', body: `This is push ${i}.` } } }));
    });
  let sent = 0;
  let next = 0;
  const result = drain(() => sent, MESSAGES);
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < MESSAGES) {
        await push(next++);
        sent++;
      }
    }),
  );
  emit({ what: 'push sender baseline', ...(await result) });
  session.close();
}

async function stage(): Promise<void> {
  const ws = await workspace({
    SECRETS_KEY: randomBytes(32).toString('base64'),
    APNS_KEY_ID: KEY.keyId,
    APNS_TEAM_ID: KEY.teamId,
    APNS_KEY: KEY.key,
    APNS_TOPIC: TOPIC,
    APNS_API_URL: APNS_URL,
    PUSH_PEER_CA: CA,
  });
  const topic = Topics.delivery('PUSH');
  await prefill(ws, [topic, Topics.events], MESSAGES, (i) => {
    const value = pushJob(ws.tenant, i);
    return [{ topic, key: keyOf(ws.tenant, value.userId), value }];
  });
  await drainSender(ws, 'push sender', 'PUSH', PushSenderModule);
}

runStage({ baseline, stage });
