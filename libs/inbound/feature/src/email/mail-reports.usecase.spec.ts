import type { DeliveryEventsPublisher } from '@notify/delivery-events';
import { type MailReport, signTrackingToken, trackingKey } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import type { UserRepository } from '@notify/store';
import { FakeClock, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { MailReportsUseCase } from './mail-reports.usecase';
import { TrackingTokens } from './tracking-tokens';

describe('MailReportsUseCase', () => {
  const secret = randomBytes(32);
  const config = loadAppConfig({
    SECRETS_KEY: secret.toString('base64'),
    FEEDBACK_LOOP_SOURCES: '192.0.2.25, 198.51.100.0/24, 2001:db8:fb1::/48',
  });
  const ref = signTrackingToken(
    { k: 'm', a: 'acct', e: 'env', t: 'track-1', u: 'ann', n: 'news' },
    trackingKey(secret),
  );
  const complaint: MailReport = {
    kind: 'complaint',
    code: 'COMPLAINT_ABUSE',
    feedbackType: 'abuse',
    recipient: 'ann@example.org',
    ref,
  };

  function reports() {
    const published: unknown[] = [];
    const suppressed: unknown[] = [];
    const events = {
      event: (...args: unknown[]) => args,
      publish: async (...batch: unknown[]) => void published.push(...batch),
    } as unknown as DeliveryEventsPublisher;
    const users = {
      get: async () => ({ id: 'ann', email: 'ann@example.org' }),
      setEmailSuppression: async (...args: unknown[]) => void suppressed.push(args),
    } as unknown as UserRepository;
    const useCase = new MailReportsUseCase(
      events,
      users,
      new TrackingTokens(config),
      config,
      testLogger('mail-reports'),
      new FakeClock(),
    );
    return { useCase, published, suppressed };
  }

  it.each(['192.0.2.25', '198.51.100.7', '::ffff:198.51.100.200', '2001:db8:fb1:2::25'])(
    'acts on a complaint delivered by a configured feedback loop (%s)',
    async (reporter) => {
      const { useCase, published, suppressed } = reports();
      expect(await useCase.handle(complaint, reporter)).toBe(true);
      expect(published).toHaveLength(1);
      expect(suppressed).toHaveLength(1);
    },
  );

  it.each(['192.0.2.26', '198.51.101.7', '2001:db8:fb2::25', '127.0.0.1', 'abuse@fbl.mailbox.test', ''])(
    'ignores a complaint quoting our reference delivered by any other server (%s)',
    async (reporter) => {
      const { useCase, published, suppressed } = reports();
      expect(await useCase.handle(complaint, reporter)).toBe(true);
      expect(published).toEqual([]);
      expect(suppressed).toEqual([]);
    },
  );

  it('takes delivery reports from any sender (a bounce comes from whichever server refused)', async () => {
    const { useCase, published, suppressed } = reports();
    const bounce: MailReport = {
      kind: 'bounce',
      code: 'PERMANENT_NO_EMAIL_BOUNCE',
      permanent: true,
      status: '5.1.1',
      recipient: 'ann@example.org',
      ref,
    };
    expect(await useCase.handle(bounce, '203.0.113.9')).toBe(true);
    expect(published).toHaveLength(1);
    expect(suppressed).toHaveLength(1);
  });
});
