import { slackAppSetting } from './slack-app';

describe('slackAppSetting', () => {
  it('keeps client id and secret, shows the secret masked', () => {
    const app = slackAppSetting.parse({ clientId: '1234.5678', clientSecret: 'ab'.repeat(16) });
    expect(app).toEqual({ clientId: '1234.5678', clientSecret: 'ab'.repeat(16) });
    expect(slackAppSetting.present(app)).not.toContain('ab'.repeat(16));
  });

  it('refuses anything else', () => {
    expect(() => slackAppSetting.parse({ clientId: 'x', clientSecret: 'ab'.repeat(16) })).toThrow(
      /slack.clientId/,
    );
    expect(() => slackAppSetting.parse({ clientId: '1.2', clientSecret: 'nothex!' })).toThrow(
      /slack.clientSecret/,
    );
    expect(() => slackAppSetting.parse({ clientId: '1.2', clientSecret: 'ab'.repeat(16), extra: 1 })).toThrow(
      /slack/,
    );
  });
});
