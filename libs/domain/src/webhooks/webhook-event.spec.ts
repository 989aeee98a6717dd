import { verify } from 'pingram/webhooks';
import { Webhook } from 'standardwebhooks';
import type { DeliveryEvent } from '../delivery-log/delivery-event';
import {
  isRetryableStatus,
  newWebhookSecret,
  WEBHOOK_RETRY_SCHEDULE_MS,
  webhookFor,
  webhookResult,
  webhookSignatureHeaders,
} from './webhook-event';

const event = (name: string, fields: DeliveryEvent['fields'] = {}): DeliveryEvent => ({
  eventId: 'e1',
  accountId: 'a',
  envId: 'env',
  trackingId: 't1',
  time: Date.parse('2026-03-01T00:00:00Z'),
  event: name,
  userId: 'u1',
  notificationId: 'welcome',
  fields,
});

describe('webhook events', () => {
  it('maps failures and deliveries to webhook event types with the failure code and the log field of the result', () => {
    expect(webhookFor(event('email_failed', { email_failed_code: 'PERMANENT_GENERAL_BOUNCE' }))).toEqual({
      payload: {
        eventType: 'EMAIL_FAILED',
        channel: 'EMAIL',
        userId: 'u1',
        notificationId: 'welcome',
        trackingId: 't1',
        timestamp: '2026-03-01T00:00:00.000Z',
        failureCode: 'PERMANENT_GENERAL_BOUNCE',
      },
      resField: 'email_failed_webhook_res',
    });
    expect(
      webhookFor(event('mobile_push_failed', { mobile_push_failed_code: 'INVALID_FCM_TOKEN' }))?.payload,
    ).toMatchObject({ eventType: 'PUSH_FAILED', channel: 'PUSH', failureCode: 'INVALID_FCM_TOKEN' });
    expect(webhookFor(event('sms_delivered'))?.resField).toBeUndefined();
    expect(
      webhookFor(
        event('email_clicked', {
          email_clicked_link: 'https://x.test/a',
          email_clicked_link_tags: 'promo,summer',
        }),
      ),
    ).toMatchObject({
      payload: {
        eventType: 'EMAIL_CLICK',
        clickedLink: 'https://x.test/a',
        clickedLinkTags: ['promo', 'summer'],
      },
      resField: 'email_clicked_webhook_res',
    });
    expect(webhookFor(event('email_sent'))).toBeUndefined();
    expect(webhookFor({ ...event('email_failed'), userId: undefined })).toBeUndefined();
  });

  it('signs every delivery so that both pingram/webhooks and a Standard Webhooks library verify it', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ eventType: 'EMAIL_FAILED', trackingId: 't1' });
    const headers = webhookSignatureHeaders(secret, 'msg_1', body, Date.now());
    expect(
      verify({
        payload: body,
        headers: {
          id: headers['x-pingram-id'] ?? '',
          signature: headers['x-pingram-signature'] ?? '',
          timestamp: headers['x-pingram-timestamp'] ?? '',
        },
        secret,
      }),
    ).toEqual(JSON.parse(body));
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-id']).toBe(headers['x-pingram-id']);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('retries network errors, timeouts, 408, 429 and 5xx on a schedule of about 28 hours', () => {
    expect([undefined, 408, 429, 500, 503].every(isRetryableStatus)).toBe(true);
    expect([200, 301, 400, 401, 404, 410].some(isRetryableStatus)).toBe(false);
    const total = WEBHOOK_RETRY_SCHEDULE_MS.reduce((sum, ms) => sum + ms, 0);
    expect(WEBHOOK_RETRY_SCHEDULE_MS).toHaveLength(8);
    expect(total / 3_600_000).toBeCloseTo(27.6, 1);
    expect(webhookResult({ status: 200 }, 3, false)).toBe('200');
    expect(webhookResult({ status: 500 }, 1, true)).toBe('500 on attempt 1, retrying');
    expect(webhookResult({ error: 'timeout' }, 8, false)).toBe('no answer (timeout) on attempt 8');
  });
});
