import { routeChannels, type RoutingInput } from './route-channels';

const input = (overrides: Partial<RoutingInput> = {}): RoutingInput => ({
  notificationId: 'welcome',
  typeChannels: ['EMAIL', 'SMS'],
  typeEnabled: true,
  disabledChannels: [],
  preferences: [],
  scheduled: false,
  ...overrides,
});

const routingOf = (decision: ReturnType<typeof routeChannels>) =>
  Object.fromEntries(
    decision.channels.map((c) => [c.channel, c.reason ? `${c.routing}:${c.reason}` : c.routing]),
  );

describe('routeChannels', () => {
  it('sends on the type’s channels and marks the others OFF', () => {
    const decision = routeChannels(input());
    expect(decision.deliver).toEqual(['EMAIL', 'SMS']);
    expect(routingOf(decision)).toEqual({
      EMAIL: 'SEND',
      INAPP_WEB: 'OFF',
      SMS: 'SEND',
      CALL: 'OFF',
      PUSH: 'OFF',
      WEB_PUSH: 'OFF',
      SLACK: 'OFF',
    });
    expect(decision.ignored).toBeUndefined();
  });

  it('lets forceChannels replace the type’s channels but not the user’s preferences', () => {
    const decision = routeChannels(
      input({
        forceChannels: ['SMS', 'CALL'],
        preferences: [{ notificationId: 'welcome', channel: 'CALL', delivery: 'off' }],
      }),
    );
    expect(decision.deliver).toEqual(['SMS']);
    expect(routingOf(decision)).toMatchObject({
      EMAIL: 'OFF',
      SMS: 'SEND',
      CALL: 'IGNORE:IGNORE_BY_PREFERENCES',
    });
  });

  it('gives each IGNORE its reason: environment, preference, default delivery', () => {
    const decision = routeChannels(
      input({
        typeChannels: ['EMAIL', 'SMS', 'PUSH'],
        disabledChannels: ['SMS'],
        preferences: [{ notificationId: 'welcome', channel: 'EMAIL', delivery: 'off' }],
        typeOptions: { PUSH: { defaultDeliveryOption: 'off' } },
      }),
    );
    expect(routingOf(decision)).toMatchObject({
      EMAIL: 'IGNORE:IGNORE_BY_PREFERENCES',
      SMS: 'IGNORE:IGNORE_BY_ENVIRONMENT',
      PUSH: 'IGNORE:IGNORE_BY_DEFAULT_DELIVERY',
    });
    expect(decision.ignored).toBe('ALL_CHANNELS_IGNORED');
    expect(decision.deliver).toEqual([]);
  });

  it('prefers a sub-notification preference over the notification-wide one', () => {
    const preferences = [
      { notificationId: 'welcome', channel: 'EMAIL' as const, delivery: 'off' as const },
      {
        notificationId: 'welcome',
        subNotificationId: 'team-a',
        channel: 'EMAIL' as const,
        delivery: 'instant' as const,
      },
    ];
    expect(routeChannels(input({ preferences, subNotificationId: 'team-a' })).deliver).toContain('EMAIL');
    expect(routeChannels(input({ preferences, subNotificationId: 'team-b' })).deliver).not.toContain('EMAIL');
  });

  it('batches digest deliveries, schedules future sends, and ignores a disabled type', () => {
    expect(
      routingOf(
        routeChannels(
          input({ preferences: [{ notificationId: 'welcome', channel: 'EMAIL', delivery: 'daily' }] }),
        ),
      ).EMAIL,
    ).toBe('BATCH');
    const scheduled = routeChannels(input({ scheduled: true }));
    expect(routingOf(scheduled)).toMatchObject({ EMAIL: 'SCHEDULE', SMS: 'SCHEDULE' });
    expect(scheduled.deliver).toEqual([]);
    expect(scheduled.ignored).toBeUndefined();
    const disabled = routeChannels(input({ typeEnabled: false }));
    expect(disabled).toMatchObject({ ignored: 'DISABLED_NOTIFICATION', deliver: [] });
  });
});
