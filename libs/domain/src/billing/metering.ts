import type { Channel } from '../channels/channel';
import { CHANNEL_STRATEGIES } from '../channels/registry';
import type { DeliveryEvent } from '../delivery-log/delivery-event';

/** USD in integer millionths: sums of many small prices stay exact. */
export type Micros = number;

export const toMicros = (usd: number): Micros => Math.round(usd * 1_000_000);
export const toUsd = (micros: Micros): number => micros / 1_000_000;

/**
 * Per-message prices (USD) of the channels priced by the message. SMS is priced by segments and
 * country (SMS_RATES, MMS_RATES) and calls by started minute (CALL_RATES) where the event is
 * recorded, so their prices arrive on the event; BILLING_RATES overrides these defaults.
 */
export const DEFAULT_MESSAGE_RATES: Readonly<Record<Exclude<Channel, 'SMS' | 'CALL'>, number>> = {
  EMAIL: 0.0004,
  PUSH: 0.0001,
  WEB_PUSH: 0.0001,
  SLACK: 0.0001,
  INAPP_WEB: 0.0001,
};

/** Per-message prices in micros by channel: the defaults, overridden by the configured ones. */
export type MessageRates = Readonly<Partial<Record<Channel, Micros>>>;

export function messageRates(overrides: Readonly<Record<string, number>>): MessageRates {
  const rates: Partial<Record<Channel, Micros>> = {};
  for (const [channel, usd] of Object.entries({ ...DEFAULT_MESSAGE_RATES, ...overrides }))
    if (channel in DEFAULT_MESSAGE_RATES) rates[channel as Channel] = toMicros(usd);
  return rates;
}

/** What one delivery event adds to its organization's usage. */
export interface MeteredItem {
  /**
   * One count per key, however often the event is redelivered or republished: the event's id, or
   * for a call's price the call itself (a status callback Twilio retries is logged again).
   */
  readonly key: string;
  readonly channel: Channel;
  /** 1: a message reached its provider. 0: a call's price, known once the call ended. */
  readonly messages: 0 | 1;
  readonly costMicros: Micros;
}

const CHANNEL_OF_SENT_EVENT: ReadonlyMap<string, Channel> = new Map(
  [...CHANNEL_STRATEGIES.values()].map((strategy) => [`${strategy.logPrefix}_sent`, strategy.channel]),
);

/** A price an event recorded (USD), in micros; none recorded: 0. */
const recorded = (usd: unknown): Micros => (typeof usd === 'number' ? toMicros(usd) : 0);

/**
 * The usage a delivery event stands for, if any. A message counts when it reached its provider
 * (`<prefix>_sent`), priced per message, an SMS or MMS by the price its sender recorded
 * (`sms_sent_cost`). A call counts as a message when placed (`call_sent`) and is priced when its
 * status callback gives the minutes (`call_delivered`, `call_delivered_cost`), once per call. An
 * SMS auto-reply (`sms_replied`) is an SMS Twilio sent: priced by the cost the inbound service
 * recorded (`sms_replied_cost`).
 */
export function meterEvent(event: DeliveryEvent, rates: MessageRates): MeteredItem | undefined {
  if (event.event === 'call_delivered') {
    return {
      key: `${event.accountId}/${event.trackingId}/call_delivered`,
      channel: 'CALL',
      messages: 0,
      costMicros: recorded(event.fields.call_delivered_cost),
    };
  }
  if (event.event === 'sms_replied')
    return {
      key: event.eventId,
      channel: 'SMS',
      messages: 1,
      costMicros: recorded(event.fields.sms_replied_cost),
    };
  const channel = CHANNEL_OF_SENT_EVENT.get(event.event);
  if (channel === undefined) return undefined;
  const costMicros = channel === 'SMS' ? recorded(event.fields.sms_sent_cost) : (rates[channel] ?? 0);
  return { key: event.eventId, channel, messages: 1, costMicros };
}
