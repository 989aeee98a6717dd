import type { LogFields } from '../delivery-log/log-fields';
import { parsePhoneNumber } from '../phone/phone-number';
import { priceOf, type RateTable } from '../sms/pricing';
import { phoneFailureCode } from '../sms/provider-failure';

export type TwilioForm = Readonly<Record<string, string | readonly string[]>>;

/** A form value (Twilio may repeat a key: the first counts). */
export const twilioField = (form: TwilioForm, name: string): string | undefined => {
  const value = form[name];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
};

const iso = (ms: number) => new Date(ms).toISOString();

/** The event a callback records, and its log fields. */
export interface StatusOutcome {
  readonly event: string;
  readonly fields: LogFields;
}
const after = (receivedAt: number, now: number) => Math.max(0, now - receivedAt);

/** The log event a message status callback records, or undefined for an intermediate status. */
export function smsStatusEvent(form: TwilioForm, receivedAt: number, now: number): StatusOutcome | undefined {
  const status = twilioField(form, 'MessageStatus') ?? twilioField(form, 'SmsStatus');
  if (status === 'delivered')
    return {
      event: 'sms_delivered',
      fields: { sms_delivered_at: iso(now), sms_delivered_after: after(receivedAt, now) },
    };
  if (status === 'undelivered' || status === 'failed') {
    const code = twilioField(form, 'ErrorCode');
    return {
      event: 'sms_failed',
      fields: {
        sms_failed_at: iso(now),
        sms_failed_code: phoneFailureCode(code),
        sms_failed_internal: `the carrier reported the message ${status}${code !== undefined ? ` (${code})` : ''}`,
      },
    };
  }
  return undefined;
}

const CALL_OUTCOMES: Readonly<Record<string, string>> = {
  completed: 'COMPLETED',
  busy: 'BUSY',
  'no-answer': 'NO_ANSWER',
};

/** The log event a call status callback records (its outcome and cost), or undefined mid-call. */
export function callStatusEvent(
  form: TwilioForm,
  receivedAt: number,
  now: number,
  perMinute: RateTable,
): StatusOutcome | undefined {
  const status = twilioField(form, 'CallStatus');
  if (status === undefined || ['queued', 'initiated', 'ringing', 'in-progress'].includes(status))
    return undefined;
  if (status === 'failed' || status === 'canceled')
    return {
      event: 'call_failed',
      fields: {
        call_failed_at: iso(now),
        call_failed_code: phoneFailureCode(twilioField(form, 'ErrorCode')),
        call_failed_internal: `the call ${status}`,
      },
    };
  const seconds = Number(twilioField(form, 'CallDuration') ?? '0');
  const minutes = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : 0;
  const country = parsePhoneNumber(twilioField(form, 'To') ?? '')?.country;
  const cost = priceOf(perMinute, country, minutes);
  return {
    event: 'call_delivered',
    fields: {
      call_delivered_at: iso(now),
      call_delivered_after: after(receivedAt, now),
      call_delivered_code: CALL_OUTCOMES[status] ?? 'UNKNOWN',
      call_delivered_cost: cost,
      call_delivered_cost_internal: cost,
    },
  };
}
