// The SMS sender alone, draining a pre-filled `delivery.sms` into the Twilio peer at
// STAGE_TWILIO_URL (run by stages.bench.ts, with its account in STAGE_TWILIO_SID/_TOKEN), with its
// real modules on the embedded backends, and serving Twilio's status callback route as the
// all-in-one does: the peer posts two signed receipts per message (sent, delivered) back to it, so
// a message counts once the sender committed its job and both receipts were answered. Baseline
// (`baseline` argument): the same messages created through the plain twilio SDK client (its own
// keep-alive RequestClient, requests to api.twilio.com sent to the peer instead), 64 at a time, with
// the receipts checked by the SDK's validateRequest on a bare node:http server.
import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule, type EmbeddedBus, EVENT_BUS } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { Groups, type SmsJob, Topics } from '@notify/domain';
import { InboundModule } from '@notify/inbound-feature';
import { createHttpApp, listen, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { TWILIO_API_URL } from '@notify/providers';
import { SmsSenderModule } from '@notify/sender-sms-feature';
import { StoreModule } from '@notify/store';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import RequestClient from 'twilio/lib/base/RequestClient';
import {
  committed,
  drain,
  emit,
  keyOf,
  MESSAGES,
  prefill,
  runStage,
  type Tenant,
  workspace,
} from './stage-harness';

const TWILIO = {
  apiUrl: process.env.STAGE_TWILIO_URL ?? '',
  accountSid: process.env.STAGE_TWILIO_SID ?? '',
  authToken: process.env.STAGE_TWILIO_TOKEN ?? '',
};
const FROM = '+15005550006';
const RECEIPTS_PER_MESSAGE = 2;
const STATUS_PATH = '/inbound/twilio/status';

const toOf = (i: number) => `+1415${String(i).padStart(7, '0')}`;

function smsJob(tenant: Tenant, i: number, now = Date.now()): SmsJob {
  return {
    trackingId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    accountId: tenant.accountId,
    envId: tenant.envId,
    receivedAt: now,
    test: false,
    notificationId: 'bench',
    userId: `user-${i}`,
    to: toOf(i),
    body: `Hello Bench, this is message ${i}.`,
    mediaUrls: [],
  };
}

/**
 * The SDK's own HTTP client (axios), sending what it would send to api.twilio.com to the peer. The
 * baseline is what a sender costs on the plain SDK, so it cannot use the service's client
 * (createTwilioClient, whose apiUrl does this rewrite): only the origin is changed, the rest is the
 * SDK's request path as an application using twilio() gets it.
 */
class PeerRequestClient extends RequestClient {
  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    return super.request({ ...opts, uri: `${TWILIO.apiUrl}${opts.uri.slice(TWILIO_API_URL.length)}` });
  }
}

/** A port nothing listens on now, for a server whose URL must be known before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function baseline(): Promise<void> {
  let receipts = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const url = `${publicUrl}${request.url ?? '/'}`;
      const form = Object.fromEntries(new URLSearchParams(body));
      const signature = String(request.headers['x-twilio-signature'] ?? '');
      const valid = twilio.validateRequest(TWILIO.authToken, signature, url, form);
      if (valid) receipts++;
      response.writeHead(valid ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = twilio(TWILIO.accountSid, TWILIO.authToken, {
    httpClient: new PeerRequestClient({ keepAlive: true }),
  });
  let next = 0;
  const result = drain(() => Math.floor(receipts / RECEIPTS_PER_MESSAGE), MESSAGES);
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < MESSAGES) {
        const i = next++;
        await client.messages.create({
          to: toOf(i),
          from: FROM,
          body: `Hello Bench, this is message ${i}.`,
          statusCallback: `${publicUrl}${STATUS_PATH}?trackingId=${i}`,
        });
      }
    }),
  );
  emit({ what: 'SMS sender baseline', ...(await result) });
  server.closeAllConnections();
  server.close();
}

async function stage(): Promise<void> {
  const port = await freePort();
  const ws = await workspace({
    SECRETS_KEY: randomBytes(32).toString('base64'),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TWILIO_ACCOUNT_SID: TWILIO.accountSid,
    TWILIO_AUTH_TOKEN: TWILIO.authToken,
    TWILIO_FROM_NUMBER: FROM,
    TWILIO_API_URL: TWILIO.apiUrl,
  });
  const topic = Topics.delivery('SMS');
  await prefill(ws, [topic, Topics.events], MESSAGES, (i) => {
    const value = smsJob(ws.tenant, i);
    return [{ topic, key: keyOf(ws.tenant, value.userId), value }];
  });
  @Module({})
  class SmsStageModule {
    static forRoot(): DynamicModule {
      return {
        module: SmsStageModule,
        imports: [
          PlatformModule.forRoot(ws.config, ws.logger),
          BusModule.forRoot(),
          StoreModule.forRoot(),
          ProviderSettingsModule,
          CoordinationModule.forRoot(),
          DeliveryEventsModule,
          InboundModule,
          SmsSenderModule,
        ],
      };
    }
  }
  const app = await createHttpApp(SmsStageModule.forRoot(), ws.config, ws.logger);
  let receipts = 0;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request, reply, done) => {
      if (request.url.startsWith(STATUS_PATH) && reply.statusCode === 204) receipts++;
      done();
    });
  const bus = app.get<EmbeddedBus>(EVENT_BUS);
  await listen(app, ws.config);
  const sent = () => committed(bus, Groups.sender('SMS'), topic);
  const done = () => Math.min(sent(), Math.floor(receipts / RECEIPTS_PER_MESSAGE));
  emit({ what: 'SMS sender', ...(await drain(done, MESSAGES)) });
  await app.close();
  await ws.remove();
}

runStage({ baseline, stage });
