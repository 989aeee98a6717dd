import {
  MAX_SUB_NOTIFICATIONS,
  type SubNotification,
  TooManySubNotificationsError,
  withSubNotification,
} from './notification-type';

const sub = (subNotificationId: string, title = subNotificationId): SubNotification => ({
  subNotificationId,
  title,
});

describe('withSubNotification', () => {
  it('adds a new sub-notification at the end, and renames an existing one in place', () => {
    const two = withSubNotification([sub('a')], sub('b'));
    expect(two).toEqual([sub('a'), sub('b')]);
    expect(withSubNotification(two, sub('a', 'Renamed'))).toEqual([sub('a', 'Renamed'), sub('b')]);
  });

  it(`keeps at most ${MAX_SUB_NOTIFICATIONS} per type, though an existing one may still be renamed`, () => {
    const full = Array.from({ length: MAX_SUB_NOTIFICATIONS }, (_, i) => sub(`s${i}`));
    expect(() => withSubNotification(full, sub('one-more'))).toThrow(TooManySubNotificationsError);
    expect(withSubNotification(full, sub('s0', 'Renamed'))[0]).toEqual(sub('s0', 'Renamed'));
  });
});
