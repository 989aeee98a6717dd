import type { Schemas } from '../api/client';
import type { paths } from '../api/openapi';

export type NotificationType = Schemas['Notification'];
type Channel = NotificationType['channels'][number];
type ChannelOptions = NotificationType['options'][string];
export type Delivery = ChannelOptions['defaultDeliveryOption'];
type Throttling = NonNullable<NotificationType['throttling']>;
export type ThrottleUnit = Throttling['unit'];
export type ThrottleScope = Throttling['scope'][number];
export type Day = NonNullable<NonNullable<NotificationType['quietHours']>['days']>[number];

export const DELIVERIES: readonly Delivery[] = ['off', 'instant', 'hourly', 'daily', 'weekly', 'monthly'];
export const UNITS: readonly ThrottleUnit[] = ['seconds', 'minutes', 'hours', 'days', 'months', 'years'];
export const SCOPES: readonly ThrottleScope[] = ['userId', 'notificationId'];
export const DAYS: readonly Day[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A channel's delivery as the form edits it: numbers are text until saved. */
export interface DeliveryForm {
  defaultDeliveryOption: Delivery;
  batching: boolean;
  batchingKey: string;
  batchingWindow: string;
}

/** A notification type as its form edits it; an empty number means "none". */
export interface TypeForm {
  title: string;
  enabled: boolean;
  urgent: boolean;
  channels: Channel[];
  delivery: Partial<Record<Channel, DeliveryForm>>;
  /** Seconds. */
  deduplication: string;
  throttling: {
    on: boolean;
    max: string;
    period: string;
    unit: ThrottleUnit;
    forever: boolean;
    scope: ThrottleScope[];
  };
  /** Days an in-app notification is kept. */
  retention: string;
  quietHours: { on: boolean; start: string; end: string; days: Day[] };
}

export type TypePatch = NonNullable<
  paths['/types/{notificationId}']['patch']['requestBody']
>['content']['application/json'];

export function formOf(type: NotificationType): TypeForm {
  const delivery: TypeForm['delivery'] = {};
  for (const channel of type.channels) delivery[channel] = deliveryOf(type.options[channel]);
  return {
    title: type.title,
    enabled: type.enabled,
    urgent: type.urgent ?? false,
    channels: [...type.channels],
    delivery,
    deduplication: type.deduplication === undefined ? '' : String(type.deduplication.duration),
    throttling:
      type.throttling === undefined
        ? {
            on: false,
            max: '',
            period: '',
            unit: 'hours',
            forever: false,
            scope: ['userId', 'notificationId'],
          }
        : {
            on: true,
            max: String(type.throttling.max),
            period: String(type.throttling.period),
            unit: type.throttling.unit,
            forever: type.throttling.forever,
            scope: [...type.throttling.scope],
          },
    retention: type.retention === undefined ? '' : String(type.retention),
    quietHours:
      type.quietHours === undefined
        ? { on: false, start: '22:00', end: '07:00', days: [] }
        : {
            on: true,
            start: type.quietHours.start,
            end: type.quietHours.end,
            days: [...(type.quietHours.days ?? [])],
          },
  };
}

export function deliveryOf(options: ChannelOptions | undefined): DeliveryForm {
  return {
    defaultDeliveryOption: options?.defaultDeliveryOption ?? 'instant',
    batching: options?.instant?.batching ?? false,
    batchingKey: options?.instant?.batchingKey ?? '',
    batchingWindow:
      options?.instant?.batchingWindow === undefined ? '' : String(options.instant.batchingWindow),
  };
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The PATCH body for the form, or what is wrong with it. A channel's options keep what the form
 * does not edit (the digest hours and days); a setting turned off is sent as `null`, which removes it.
 */
export function patchOf(form: TypeForm, type: NotificationType): { body: TypePatch; invalid: string[] } {
  const invalid: string[] = [];
  const positive = (text: string, what: string, integer = false): number => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
      invalid.push(`${what} must be a positive ${integer ? 'whole number' : 'number'}.`);
    return value;
  };
  if (form.title.trim() === '') invalid.push('The title is required.');
  const options: TypePatch['options'] = {};
  for (const channel of form.channels) {
    const edited = form.delivery[channel] ?? deliveryOf(undefined);
    const kept = type.options[channel];
    const instant: NonNullable<ChannelOptions['instant']> = {
      ...kept?.instant,
      enabled: kept?.instant?.enabled ?? true,
      batching: edited.batching,
    };
    delete instant.batchingKey;
    delete instant.batchingWindow;
    if (edited.batching && edited.batchingKey.trim() !== '') instant.batchingKey = edited.batchingKey.trim();
    if (edited.batching && edited.batchingWindow.trim() !== '')
      instant.batchingWindow = positive(edited.batchingWindow, `The ${channel} batching window`);
    options[channel] = { ...kept, defaultDeliveryOption: edited.defaultDeliveryOption, instant };
  }
  const body: TypePatch = {
    title: form.title.trim(),
    enabled: form.enabled,
    urgent: form.urgent,
    channels: form.channels,
    options,
    deduplication:
      form.deduplication.trim() === ''
        ? null
        : { duration: positive(form.deduplication, 'The deduplication window') },
    retention: form.retention.trim() === '' ? null : positive(form.retention, 'The retention', true),
    throttling: form.throttling.on
      ? {
          max: positive(form.throttling.max, 'The throttling maximum', true),
          period: positive(form.throttling.period, 'The throttling period'),
          unit: form.throttling.unit,
          forever: form.throttling.forever,
          scope: form.throttling.scope,
        }
      : null,
    quietHours: form.quietHours.on ? quietHours(form.quietHours, invalid) : null,
  };
  return { body, invalid };
}

function quietHours(form: TypeForm['quietHours'], invalid: string[]): NonNullable<TypePatch['quietHours']> {
  if (!HH_MM.test(form.start) || !HH_MM.test(form.end))
    invalid.push('Quiet hours start and end are times such as 22:00.');
  return { start: form.start, end: form.end, ...(form.days.length > 0 ? { days: form.days } : {}) };
}
