import { apnsRefusal, fcmRefusal, webPushRefusal } from './push-failure';

describe('push refusals', () => {
  it('treats tokens FCM no longer knows as dead, and its server trouble as passing', () => {
    expect(fcmRefusal('messaging/registration-token-not-registered')).toEqual({
      code: 'INVALID_FCM_TOKEN',
      dead: true,
      transient: false,
    });
    expect(fcmRefusal('messaging/invalid-registration-token').dead).toBe(true);
    expect(fcmRefusal('messaging/server-unavailable')).toEqual({
      code: 'UNKNOWN',
      dead: false,
      transient: true,
    });
    expect(fcmRefusal('messaging/invalid-argument')).toEqual({
      code: 'UNKNOWN',
      dead: false,
      transient: false,
    });
    expect(fcmRefusal(undefined).transient).toBe(true);
  });

  it("follows Apple's reasons: Unregistered and BadDeviceToken are dead, 429 and 5xx pass", () => {
    expect(apnsRefusal(410, 'Unregistered')).toEqual({
      code: 'INVALID_APN_TOKEN',
      dead: true,
      transient: false,
    });
    expect(apnsRefusal(400, 'BadDeviceToken').dead).toBe(true);
    expect(apnsRefusal(400, 'DeviceTokenNotForTopic')).toEqual({
      code: 'INVALID_APN_TOKEN',
      dead: false,
      transient: false,
    });
    expect(apnsRefusal(429, 'TooManyRequests')).toEqual({ code: 'UNKNOWN', dead: false, transient: true });
    expect(apnsRefusal(503, 'ServiceUnavailable').transient).toBe(true);
    expect(apnsRefusal(403, 'InvalidProviderToken')).toEqual({
      code: 'UNKNOWN',
      dead: false,
      transient: false,
    });
    expect(apnsRefusal(undefined, undefined).transient).toBe(true);
  });

  it('removes web push subscriptions the push service says are gone', () => {
    expect(webPushRefusal(410)).toEqual({ code: 'UNSUBSCIRBED_OR_EXPIRED', dead: true, transient: false });
    expect(webPushRefusal(404).dead).toBe(true);
    expect(webPushRefusal(429).transient).toBe(true);
    expect(webPushRefusal(502).transient).toBe(true);
    expect(webPushRefusal(400)).toEqual({ code: 'UNKNOWN', dead: false, transient: false });
    expect(webPushRefusal(undefined).transient).toBe(true);
  });
});
