import { formOf, type NotificationType, patchOf } from './type-form';

const aType = (fields: Partial<NotificationType> = {}): NotificationType => ({
  envId: 'env',
  notificationId: 'welcome',
  title: 'Welcome',
  channels: ['EMAIL'],
  enabled: true,
  options: {
    EMAIL: {
      defaultDeliveryOption: 'instant',
      instant: { enabled: true },
      daily: { enabled: true, hour: '08:30' },
    },
  },
  ...fields,
});

describe('formOf and patchOf', () => {
  it('writes back what it read: unset settings as null (removed), options kept', () => {
    const type = aType();
    const { body, invalid } = patchOf(formOf(type), type);
    expect(invalid).toEqual([]);
    expect(body).toEqual({
      title: 'Welcome',
      enabled: true,
      urgent: false,
      channels: ['EMAIL'],
      options: {
        EMAIL: {
          defaultDeliveryOption: 'instant',
          instant: { enabled: true, batching: false },
          daily: { enabled: true, hour: '08:30' },
        },
      },
      deduplication: null,
      retention: null,
      throttling: null,
      quietHours: null,
    });
  });

  it('round-trips every setting a type has', () => {
    const type = aType({
      deduplication: { duration: 60 },
      throttling: { max: 3, period: 1, unit: 'days', forever: false, scope: ['userId'] },
      retention: 14,
      quietHours: { start: '22:00', end: '07:00', days: ['sat', 'sun'] },
      urgent: true,
    });
    const { body } = patchOf(formOf(type), type);
    expect(body).toMatchObject({
      deduplication: { duration: 60 },
      throttling: { max: 3, period: 1, unit: 'days', forever: false, scope: ['userId'] },
      retention: 14,
      quietHours: { start: '22:00', end: '07:00', days: ['sat', 'sun'] },
      urgent: true,
    });
  });

  it('sets a digest or a batching window per channel, and gives a new channel instant delivery', () => {
    const type = aType();
    const form = formOf(type);
    form.channels = ['EMAIL', 'SMS'];
    form.delivery.EMAIL = {
      defaultDeliveryOption: 'daily',
      batching: true,
      batchingKey: 'orderId',
      batchingWindow: '120',
    };
    const { body } = patchOf(form, type);
    expect(body.options?.['EMAIL']).toEqual({
      defaultDeliveryOption: 'daily',
      instant: { enabled: true, batching: true, batchingKey: 'orderId', batchingWindow: 120 },
      daily: { enabled: true, hour: '08:30' },
    });
    expect(body.options?.['SMS']).toEqual({
      defaultDeliveryOption: 'instant',
      instant: { enabled: true, batching: false },
    });
  });

  it('lists what is wrong instead of sending it', () => {
    const form = formOf(aType());
    form.title = ' ';
    form.deduplication = '-1';
    form.throttling = { ...form.throttling, on: true, max: '1.5', period: '' };
    form.quietHours = { on: true, start: '25:00', end: '07:00', days: [] };
    expect(patchOf(form, aType()).invalid).toEqual([
      'The title is required.',
      'The deduplication window must be a positive number.',
      'The throttling maximum must be a positive whole number.',
      'The throttling period must be a positive number.',
      'Quiet hours start and end are times such as 22:00.',
    ]);
  });
});
