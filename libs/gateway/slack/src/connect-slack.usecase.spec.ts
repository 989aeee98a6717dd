import { EmbeddedCoordinationStore, ProviderSettingsChangesStore } from '@notify/cache';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings, ProviderSettingsCache } from '@notify/provider-settings';
import { SlackApps } from '@notify/providers';
import { AccountRepository, EmbeddedDocumentStore, UserRepository } from '@notify/store';
import { aScope, FakeClock, tempDir, testLogger } from '@notify/testing';
import { InvalidRequestError, ProviderError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ConnectSlackUseCase } from './connect-slack.usecase';
import { FakeSlackApi } from './testing/fake-slack-api';

describe('ConnectSlackUseCase', () => {
  const scope = aScope();
  const clock = new FakeClock();
  let store: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  let users: UserRepository;
  let slack: FakeSlackApi;
  let apiUrl: string;

  const connect = (env: Record<string, string>, code = 'good-code') => {
    const config = loadAppConfig({ SLACK_API_URL: apiUrl, ...env });
    const box = new SecretBox(randomBytes(32));
    const accounts = new AccountRepository(store);
    const changes = new ProviderSettingsChangesStore(coordination);
    const cache = new ProviderSettingsCache(accounts, changes, clock, testLogger());
    const settings = new ProviderSettings(accounts, box, config, testLogger(), cache);
    return new ConnectSlackUseCase(new SlackApps(settings, config, testLogger()), users, clock).execute({
      scope,
      userId: 'ann',
      code,
      redirectUri: 'https://app.example.test/slack',
    });
  };
  const deploymentApp = { SLACK_CLIENT_ID: 'cid', SLACK_CLIENT_SECRET: 'csecret' };

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
      'oauth.v2.access': ({ code }) =>
        code === 'good-code'
          ? { ok: true, access_token: 'xoxb-1', team: { id: 'T1' }, response_metadata: { warnings: [] } }
          : { ok: false, error: code === 'used' ? 'code_already_used' : 'internal_error' },
    });
    apiUrl = await slack.start();
  });

  afterEach(async () => {
    await slack.stop();
    await coordination.close();
    await store.close();
    await remove();
  });

  it("exchanges the code with the deployment's Slack app and stores the token on the user", async () => {
    await connect(deploymentApp);
    expect(slack.calls).toEqual([
      {
        method: 'oauth.v2.access',
        token: undefined,
        params: expect.objectContaining({
          client_id: 'cid',
          client_secret: 'csecret',
          code: 'good-code',
          redirect_uri: 'https://app.example.test/slack',
        }),
      },
    ]);
    expect(await users.slackToken(scope, 'ann')).toEqual({
      ok: true,
      access_token: 'xoxb-1',
      team: { id: 'T1' },
    });
  });

  it('answers 400 SLACK_NOT_CONFIGURED without calling Slack when there is no Slack app', async () => {
    const refused = connect({});
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refused).rejects.toMatchObject({ code: 'SLACK_NOT_CONFIGURED' });
    expect(slack.calls).toEqual([]);
  });

  it("answers 400 for the caller's stale code and 502 for Slack's own error, storing nothing", async () => {
    await expect(connect(deploymentApp, 'used')).rejects.toMatchObject({
      code: 'INVALID_SLACK_CODE',
      providerCode: 'code_already_used',
    });
    const failed = connect(deploymentApp, 'other');
    await expect(failed).rejects.toBeInstanceOf(ProviderError);
    await expect(failed).rejects.toMatchObject({ code: 'SLACK_ERROR', providerCode: 'internal_error' });
    expect(await users.slackToken(scope, 'ann')).toBeUndefined();
  });
});
