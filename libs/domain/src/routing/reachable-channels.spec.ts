import { normalizeSend } from '../sends/send-request';
import type { SendBody } from '../sends/send-body';
import { contactWarnings, reachableChannels } from './reachable-channels';

const limits = { scheduleAheadMs: 86_400_000 };
const send = (body: Omit<SendBody, 'type'>) => normalizeSend({ type: 't', ...body }, 0, limits);

describe('contactWarnings', () => {
  it('names each forced channel the user has no contact for, and what is missing', () => {
    const forced = send({ to: { id: 'u', email: 'a@b.test' }, forceChannels: ['SMS', 'EMAIL', 'SLACK'] });
    expect(contactWarnings(forced, forced.recipient)).toEqual([
      'SMS is skipped: the user has no phone number (to.number).',
      'SLACK is skipped: the user has no Slack channel (to.slackChannel).',
    ]);
  });

  it('counts what the stored user has, merged with the send', () => {
    const forced = send({ to: { id: 'u' }, forceChannels: ['SMS', 'CALL', 'PUSH', 'INAPP_WEB'] });
    expect(contactWarnings(forced, { number: '+14155552671' })).toEqual([
      'PUSH is skipped: the user has no mobile push token (to.pushTokens).',
    ]);
  });

  it('without forceChannels, checks the channels with inline content only', () => {
    const inline = send({
      to: { id: 'u', email: 'a@b.test' },
      email: { subject: 's', html: 'h' },
      sms: { message: 'hi' },
      slack: { text: 'hi' },
    });
    expect(contactWarnings(inline, { ...inline.recipient, slackChannel: '#general' })).toEqual([
      'SMS is skipped: the user has no phone number (to.number).',
      'SLACK is skipped: the user has no Slack token with an access_token (to.slackToken).',
    ]);
    expect(contactWarnings(send({ to: { id: 'u' } }), {})).toEqual([]);
  });

  it('leaves a number that is not one to its own warning', () => {
    const invalid = send({ to: { id: 'u', number: '12' }, forceChannels: ['SMS', 'CALL'] });
    expect(invalid.invalidNumber).toBe('12');
    expect(contactWarnings(invalid, invalid.recipient)).toEqual([]);
  });
});

describe('reachableChannels', () => {
  it('lists the channels in one order, in-app last, whatever order the send names its content in', () => {
    const inline = send({
      to: { id: 'u', email: 'a@b.test', number: '+14155552671' },
      inapp: { title: 'hi' },
      slack: { text: 'hi' },
      sms: { message: 'hi' },
      email: { subject: 's', html: 'h' },
    });
    expect(reachableChannels(inline, inline.recipient)).toEqual(['EMAIL', 'SMS', 'INAPP_WEB']);
  });

  it('keeps forced channels whatever the contacts', () => {
    const forced = send({ to: { id: 'u' }, forceChannels: ['SMS'] });
    expect(reachableChannels(forced, {})).toEqual(['SMS']);
  });
});
