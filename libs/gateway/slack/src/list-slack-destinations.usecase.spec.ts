import { EmbeddedCoordinationStore, ProviderSettingsChangesStore } from '@notify/cache';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings, ProviderSettingsCache } from '@notify/provider-settings';
import { SlackApps } from '@notify/providers';
import { AccountRepository, EmbeddedDocumentStore, UserRepository } from '@notify/store';
import { aScope, FakeClock, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ListSlackDestinationsUseCase } from './list-slack-destinations.usecase';
import { FakeSlackApi } from './testing/fake-slack-api';

describe('ListSlackDestinationsUseCase', () => {
  const scope = aScope();
  let store: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  let users: UserRepository;
  let slack: FakeSlackApi;
  let list: ListSlackDestinationsUseCase;

  beforeEach(async () => {
    const dir = await tempDir('notify-slack-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    coordination = new EmbeddedCoordinationStore({
      path: join(dir.path, 'coordination'),
      logger: testLogger(),
    });
    users = new UserRepository(store, new SecretBox(randomBytes(32)));
    slack = new FakeSlackApi({
      'conversations.list': ({ cursor }) =>
        cursor === undefined
          ? { ok: true, channels: [{ id: 'C1', name: 'general' }], response_metadata: { next_cursor: 'p2' } }
          : { ok: true, channels: [{ id: 'C2', name: 'random' }], response_metadata: { next_cursor: '' } },
      'users.list': () => ({
        ok: true,
        members: [
          { id: 'U1', name: 'ann' },
          { id: 'U2', name: 'bot', is_bot: true },
          { id: 'U3', name: 'gone', deleted: true },
        ],
      }),
    });
    const config = loadAppConfig({ SLACK_API_URL: await slack.start() });
    const accounts = new AccountRepository(store);
    const settings = new ProviderSettings(
      accounts,
      new SecretBox(randomBytes(32)),
      config,
      testLogger(),
      new ProviderSettingsCache(
        accounts,
        new ProviderSettingsChangesStore(coordination),
        new FakeClock(),
        testLogger(),
      ),
    );
    list = new ListSlackDestinationsUseCase(new SlackApps(settings, config, testLogger()), users);
  });

  afterEach(async () => {
    await slack.stop();
    await coordination.close();
    await store.close();
    await remove();
  });

  it("lists every page of channels and the people (no bots, no deactivated users) with the user's token", async () => {
    await users.identify(
      scope,
      'ann',
      { slackToken: { ok: true, access_token: 'xoxb-ann' } },
      '2026-01-01T00:00:00.000Z',
      false,
    );
    expect(await list.execute({ scope, userId: 'ann' })).toEqual({
      channels: [
        { id: 'C1', name: '#general' },
        { id: 'C2', name: '#random' },
      ],
      users: [{ id: 'U1', name: '@ann' }],
    });
    expect(new Set(slack.calls.map((c) => c.token))).toEqual(new Set(['xoxb-ann']));
    expect(slack.calls.filter((c) => c.method === 'conversations.list').map((c) => c.params.cursor)).toEqual([
      undefined,
      'p2',
    ]);
  });

  it('answers 400 SLACK_NOT_CONNECTED without calling Slack for a user with no token', async () => {
    await expect(list.execute({ scope, userId: 'bob' })).rejects.toMatchObject({
      code: 'SLACK_NOT_CONNECTED',
    });
    expect(slack.calls).toEqual([]);
  });
});
