import {
  channelRows,
  draftOf,
  type Environment,
  environmentChanges,
  allMessages,
  historyRange,
  parseDomains,
  percentOf,
  providerChange,
  providerComplete,
  toggled,
  usd,
} from './forms';

const env: Environment = {
  clientId: 'env-1',
  clientSecret: 'env-1-secret',
  title: 'Production',
  disableSending: ['SMS'],
  secureMode: true,
  test: false,
  emailTracking: true,
};

describe('environmentChanges', () => {
  it('is null when the form is as the environment is', () => {
    expect(environmentChanges(env, draftOf(env))).toBeNull();
  });

  it('sends only the fields that changed, the title trimmed', () => {
    expect(environmentChanges(env, { ...draftOf(env), title: '  Live ', emailTracking: false })).toEqual({
      title: 'Live',
      emailTracking: false,
    });
  });

  it('treats the same channels in another order as unchanged, and lists changed ones in the console order', () => {
    const reordered = { ...env, disableSending: ['SLACK', 'EMAIL'] as Environment['disableSending'] };
    expect(
      environmentChanges(reordered, { ...draftOf(reordered), disableSending: ['EMAIL', 'SLACK'] }),
    ).toBeNull();
    expect(environmentChanges(env, { ...draftOf(env), disableSending: ['SLACK', 'EMAIL'] })).toEqual({
      disableSending: ['EMAIL', 'SLACK'],
    });
    expect(environmentChanges(env, { ...draftOf(env), disableSending: [] })).toEqual({ disableSending: [] });
  });
});

describe('toggled', () => {
  it('adds an item once and removes it', () => {
    expect(toggled(['a'], 'a', true)).toEqual(['a']);
    expect(toggled(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggled(['a', 'b'], 'a', false)).toEqual(['b']);
  });
});

describe('providerChange', () => {
  it('sets the SMTP relay as its URL', () => {
    expect(providerChange('smtpUrl', { url: ' smtps://u:p@mail.example.com:465 ' })).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.com:465',
    });
  });

  it('sets a Twilio account without the optional fields left empty', () => {
    expect(
      providerChange('twilio', {
        accountSid: 'AC1',
        authToken: 'tok',
        fromNumber: ' ',
        messagingServiceSid: '',
      }),
    ).toEqual({ twilio: { accountSid: 'AC1', authToken: 'tok' } });
  });

  it('removes a provider with null', () => {
    expect(providerChange('slack', null)).toEqual({ slack: null });
  });

  it('knows when the required fields are filled', () => {
    expect(providerComplete('slack', { clientId: '1.2', clientSecret: '' })).toBe(false);
    expect(providerComplete('twilio', { accountSid: 'AC1', authToken: 'tok' })).toBe(true);
  });
});

describe('parseDomains', () => {
  it('splits on commas, spaces and lines, lower-cases, drops a leading @ and repeats', () => {
    expect(parseDomains('Acme.com, @acme.io\nacme.com  ')).toEqual(['acme.com', 'acme.io']);
    expect(parseDomains('  ')).toEqual([]);
  });
});

describe('usd and percentOf', () => {
  it('shows cents, and more digits for amounts under a cent', () => {
    expect(usd(12.5)).toBe('$12.50');
    expect(usd(0)).toBe('$0.00');
    expect(usd(0.0004)).toBe('$0.0004');
  });

  it('bounds a share to 0–100 and gives no bar against nothing', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(5, 2)).toBe(100);
    expect(percentOf(5, 0)).toBe(0);
  });
});

describe('allMessages', () => {
  it('counts every channel, SMS and calls too, and nothing for no usage', () => {
    expect(allMessages({ EMAIL: 3, SMS: 2, CALL: 1 })).toBe(6);
    expect(allMessages({})).toBe(0);
  });
});

describe('historyRange', () => {
  it('starts on the first day of the month five months back, across a year', () => {
    expect(historyRange(new Date('2026-02-15T10:00:00Z'))).toEqual({
      startDate: '2025-09-01',
      endDate: '2026-02-15',
    });
  });
});

describe('channelRows', () => {
  it('lists channels that sent something, largest first', () => {
    expect(channelRows({ EMAIL: 3, SMS: 0, SLACK: 3, PUSH: 7 })).toEqual([
      { channel: 'PUSH', messages: 7 },
      { channel: 'EMAIL', messages: 3 },
      { channel: 'SLACK', messages: 3 },
    ]);
  });
});
