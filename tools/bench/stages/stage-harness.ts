// What the stage benchmarks share: the messages each stage consumes (as the stage before it
// produces them), a data directory with a provisioned tenant and a pre-filled topic, a Nest
// application context with one stage's modules on the embedded backends, and drain timing.
import 'reflect-metadata';
import { type DynamicModule, type INestApplicationContext, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BusModule, EmbeddedBus, EVENT_BUS, type OutgoingMessage } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import {
  type Channel,
  type DeliveryEvent,
  Groups,
  type EmailJob,
  normalizeSend,
  requestSummary,
  type SendRequested,
  Topics,
  userKey,
} from '@notify/domain';
import { provisionerFor } from '@notify/gateway-feature';
import { type AppConfig, createLogger, loadAppConfig, type Logger, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import {
  type DocumentStore,
  EmbeddedDocumentStore,
  NotificationTypeRepository,
  StoreModule,
} from '@notify/store';
import { sleep, tempDir } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sized } from '../smoke';
import { threadCpu, threadDelta } from '../service/harness';

export const MESSAGES = Number(process.env.STAGE_MESSAGES ?? sized(10_000, 200));
const KEY = `notify_sk_${randomBytes(24).toString('base64url')}`;

export interface Tenant {
  readonly accountId: string;
  readonly envId: string;
}

/** The send body every service benchmark uses (see service/harness.ts), for user `i`. */
export function sendBody(i: number) {
  return {
    type: 'bench',
    to: { id: `user-${i}`, email: `user-${i}@example.com` },
    email: { subject: 'Hello {{name}}', html: `<p>Hello {{name}}, this is message ${i}.</p>` },
    parameters: { name: 'Bench' },
  };
}

/** What every message about send `i` carries: its tracking id, tenant and acceptance. */
const origin = (tenant: Tenant, i: number, now: number) => ({
  trackingId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  accountId: tenant.accountId,
  envId: tenant.envId,
  receivedAt: now,
  test: false,
});

/** What the gateway publishes for send `i`: the router's input. */
export function sendRequested(tenant: Tenant, i: number, now = Date.now()): SendRequested {
  const body = sendBody(i);
  return {
    ...origin(tenant, i, now),
    source: 'send',
    client: { ip: '127.0.0.1', agent: 'bench' },
    request: requestSummary(body),
    send: normalizeSend(body, now, { scheduleAheadMs: 86_400_000 }),
  };
}

/** What the router hands the email sender for send `i`. */
export function emailJob(tenant: Tenant, i: number, now = Date.now()): EmailJob {
  return {
    ...origin(tenant, i, now),
    notificationId: 'bench',
    userId: `user-${i}`,
    to: `user-${i}@example.com`,
    subject: 'Hello Bench',
    html: `<p>Hello Bench, this is message ${i}.</p>`,
    replyTo: [],
    cc: [],
    bcc: [],
    attachments: [],
  };
}

/** The events one send leaves in the log (received, routed, sent, delivered), for the recorder. */
export function deliveryEvents(tenant: Tenant, i: number, now = Date.now()): DeliveryEvent[] {
  const at = new Date(now).toISOString();
  const base = { accountId: tenant.accountId, envId: tenant.envId, trackingId: `t-${i}`, time: now };
  const id = (step: number) => `${now.toString(16)}${String(i * 4 + step).padStart(10, '0')}`;
  return [
    {
      ...base,
      eventId: id(0),
      event: 'request_received',
      fields: { received_at: at, type: 'bench', user_id: `user-${i}`, clientId: tenant.envId, test: false },
    },
    {
      ...base,
      eventId: id(1),
      event: 'routed',
      fields: { processed_at: at, email_routing: 'SEND', sms_routing: 'OFF' },
    },
    {
      ...base,
      eventId: id(2),
      event: 'email_sent',
      channel: 'email',
      fields: { email_sent_at: at, email_sent_after: 12, email_sent_message_id: `<t-${i}@x>` },
    },
    {
      ...base,
      eventId: id(3),
      event: 'email_delivered',
      channel: 'email',
      fields: {
        email_delivered_at: at,
        email_delivered_after: 12,
        email_delivered_recipients: `user-${i}@example.com`,
      },
    },
  ];
}

export interface Workspace {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly tenant: Tenant;
  readonly remove: () => Promise<void>;
}

/** The first account and environment, with the bench notification type (email), in `store`. */
export async function provisionBenchTenant(store: DocumentStore, config: AppConfig): Promise<Tenant> {
  const provisioned = await provisionerFor(store, config).execute({ apiKey: KEY });
  const tenant = { accountId: provisioned.accountId, envId: provisioned.envId };
  await new NotificationTypeRepository(store).create(
    tenant,
    { notificationId: 'bench', title: 'bench', channels: ['EMAIL'] },
    new Date().toISOString(),
  );
  return tenant;
}

/** A data directory with the first tenant and the bench notification type, as `npm start` would have it. */
export async function workspace(env: Record<string, string> = {}): Promise<Workspace> {
  const dir = await tempDir('notify-stage-');
  const config = loadAppConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'warn', ...env });
  const logger = createLogger({ level: 'warn', service: 'stage' });
  const store = new EmbeddedDocumentStore(join(dir.path, 'documents'));
  const tenant = await provisionBenchTenant(store, config);
  await store.close();
  return { config, logger, tenant, remove: dir.remove };
}

/** Publishes `count` messages made by `make` onto the workspace's embedded bus, in chunks. */
export async function prefill(
  ws: Workspace,
  topics: readonly string[],
  count: number,
  make: (i: number) => OutgoingMessage[],
): Promise<void> {
  const bus = openBus(ws);
  await bus.ensureTopics(topics);
  for (let start = 0; start < count; start += 500) {
    const chunk: OutgoingMessage[] = [];
    for (let i = start; i < Math.min(count, start + 500); i++) chunk.push(...make(i));
    await bus.publish(chunk);
  }
  await bus.close();
}

export const openBus = (ws: Workspace) =>
  new EmbeddedBus({ path: join(ws.config.dataDir, 'bus'), partitions: 6, logger: ws.logger });

export const keyOf = (tenant: Tenant, userId: string) => userKey(tenant.accountId, tenant.envId, userId);

/** Messages of `group` committed on `topic`, over every partition. */
export function committed(bus: EmbeddedBus, group: string, topic: string, partitions = 6): number {
  let sum = 0;
  for (let p = 0; p < partitions; p++) sum += bus.committed(group, topic, p);
  return sum;
}

/** One stage's modules on the workspace's embedded backends, as a Nest application context. */
export async function stageContext(
  ws: Workspace,
  modules: DynamicModule['imports'],
): Promise<INestApplicationContext> {
  @Module({})
  class StageModule {
    static forRoot(): DynamicModule {
      return {
        module: StageModule,
        imports: [PlatformModule.forRoot(ws.config, ws.logger), BusModule.forRoot(), ...(modules ?? [])],
      };
    }
  }
  return NestFactory.createApplicationContext(StageModule.forRoot(), { logger: false, abortOnError: false });
}

export interface Drained {
  readonly messages: number;
  readonly seconds: number;
  /** CPU seconds this process spent during the drain, by thread name (main, MergeMutate, …). */
  readonly threads: Record<string, number>;
}

/** Waits until `done()` reaches `total`; the rate counts only what was consumed after `from`. */
export async function drain(done: () => number, total: number, timeoutMs = 300_000): Promise<Drained> {
  const started = process.hrtime.bigint();
  const cpuBefore = threadCpu(process.pid);
  const before = done();
  const deadline = Date.now() + timeoutMs;
  while (done() < total) {
    if (Date.now() > deadline) throw new Error(`stage did not drain: ${done()}/${total}`);
    await sleep(5);
  }
  return {
    messages: total - before,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    threads: threadDelta(cpuBefore, threadCpu(process.pid)),
  };
}

/** The stage's result line, read by stages.bench.ts. */
export function emit(result: { what: string } & Drained & { note?: string }): void {
  process.stdout.write(`${JSON.stringify({ ...result, rate: result.messages / result.seconds })}\n`);
}

/** A channel sender's stage: its module on the workspace's backends, draining its pre-filled topic. */
export async function drainSender(
  ws: Workspace,
  what: string,
  channel: Channel,
  sender: Type,
): Promise<void> {
  const app = await stageContext(ws, [
    StoreModule.forRoot(),
    ProviderSettingsModule,
    CoordinationModule.forRoot(),
    DeliveryEventsModule,
    sender,
  ]);
  const bus = app.get<EmbeddedBus>(EVENT_BUS);
  await app.init();
  const topic = Topics.delivery(channel);
  emit({ what, ...(await drain(() => committed(bus, Groups.sender(channel), topic), MESSAGES)) });
  await app.close();
  await ws.remove();
}

export const routeTopics = [Topics.sendRequests, Topics.events, Topics.delivery('EMAIL')];

/** Runs a stage file's `baseline` or `stage` (argv[2]) and exits: 0, or 1 with the error. */
export function runStage(modes: { baseline: () => Promise<void>; stage: () => Promise<void> }): void {
  (process.argv[2] === 'baseline' ? modes.baseline() : modes.stage()).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
      process.exit(1);
    },
  );
}
