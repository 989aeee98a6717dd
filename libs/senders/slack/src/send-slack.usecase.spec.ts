import type { EventBus } from '@notify/bus';
import { DeliveryLedgerStore, EmbeddedCoordinationStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { SlackToken } from '@notify/domain';
import type { SlackApps, SlackResolver } from '@notify/providers';
import { OnceDelivery } from '@notify/sender-common';
import type { UserRepository } from '@notify/store';
import { aSlackJob, FakeClock, RecordingBus, tempDir, testLogger } from '@notify/testing';
import { ErrorCode } from '@slack/web-api';
import { SendSlackUseCase } from './send-slack.usecase';

/** Slack's Web API as the use case calls it: each postMessage answers the next queued outcome. */
class FakeSlackClient {
  readonly posted: { channel: string; text?: string }[] = [];
  private readonly outcomes: Error[] = [];

  readonly chat = {
    postMessage: (message: { channel: string; text?: string }) => {
      this.posted.push(message);
      const error = this.outcomes.shift();
      return error === undefined
        ? Promise.resolve({ ok: true, channel: message.channel, ts: '1700000000.000100' })
        : Promise.reject(error);
    },
  };

  refuse(...errors: Error[]): void {
    this.outcomes.push(...errors);
  }
}

/** The users' Slack tokens. */
class FakeUsers {
  constructor(private readonly token: SlackToken) {}

  slackToken(): Promise<SlackToken> {
    return Promise.resolve(this.token);
  }
}

const slackSays = (error: string) =>
  Object.assign(new Error(`An API error occurred: ${error}`), {
    code: ErrorCode.PlatformError,
    data: { error },
  });

describe('SendSlackUseCase', () => {
  let dir: { path: string; remove(): Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let bus: RecordingBus;
  let client: FakeSlackClient;
  let clock: FakeClock;

  function slack(token: SlackToken = { ok: true, access_token: 'xoxb-1' } as SlackToken) {
    const events = new DeliveryEventsPublisher(bus as unknown as EventBus, clock);
    const apps = { client: () => Promise.resolve(client) } as unknown as SlackApps;
    return new SendSlackUseCase(
      new OnceDelivery(new DeliveryLedgerStore(coordination), events),
      apps,
      apps as unknown as SlackResolver,
      new FakeUsers(token) as unknown as UserRepository,
      events,
      testLogger(),
      clock,
    );
  }

  beforeEach(async () => {
    dir = await tempDir('slack-sender-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    bus = new RecordingBus();
    client = new FakeSlackClient();
    clock = new FakeClock();
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  it('posts the message and logs slack_sent and slack_delivered with where it landed', async () => {
    await slack().execute(aSlackJob({ channel: '#general' }));
    expect(client.posted).toEqual([expect.objectContaining({ channel: 'general', text: 'Deploy finished' })]);
    expect(bus.names()).toEqual(['slack_sent', 'slack_delivered']);
    expect(bus.events()[1]?.fields).toEqual({
      slack_delivered_at: new Date(clock.now()).toISOString(),
      slack_delivered_after: 1_000,
      slack_delivered_internal: 'general 1700000000.000100',
    });
  });

  it('logs Slack’s refusal with the spec’s code, and a user without an access token as INVALID_AUTH', async () => {
    client.refuse(slackSays('channel_not_found'));
    await slack().execute(aSlackJob({ trackingId: 't-1' }));
    await slack({ ok: true } as SlackToken).execute(aSlackJob({ trackingId: 't-2' }));
    expect(bus.names()).toEqual(['slack_failed', 'slack_failed']);
    expect(bus.events().map((e) => e.fields.slack_failed_code)).toEqual([
      'CHANNEL_NOT_FOUND',
      'INVALID_AUTH',
    ]);
    expect(bus.events()[0]?.fields.slack_failed_at).toBe(new Date(clock.now()).toISOString());
  });

  it('posts a redelivered job once and announces its outcome again', async () => {
    const sender = slack();
    await sender.execute(aSlackJob());
    await sender.execute(aSlackJob());
    expect(client.posted).toHaveLength(1);
    expect(bus.names()).toEqual(['slack_sent', 'slack_delivered', 'slack_sent', 'slack_delivered']);
  });

  it('retries an error that may pass (internal_error) and logs the message delivered', async () => {
    client.refuse(slackSays('internal_error'));
    await slack().execute(aSlackJob());
    expect(client.posted).toHaveLength(2);
    expect(bus.names()).toEqual(['slack_sent', 'slack_delivered']);
  });
});
