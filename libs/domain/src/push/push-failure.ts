/** How a push service answered one device: the spec's failure code, and what to do about it. */
export interface PushRefusal {
  /** The spec's `mobile_push_failed_code` / `web_push_failed_code`. */
  readonly code: string;
  /** The token or subscription is dead for good: remove it from the user. */
  readonly dead: boolean;
  /** The refusal may pass (rate limit, server trouble, no answer): retry with backoff. */
  readonly transient: boolean;
}

const refusal = (code: string, dead: boolean, transient: boolean): PushRefusal => ({ code, dead, transient });

/** FCM errors that mean the service may accept the same message later. */
const FCM_TRANSIENT = new Set([
  'messaging/server-unavailable',
  'messaging/internal-error',
  'messaging/unknown-error',
  'messaging/message-rate-exceeded',
  'messaging/device-message-rate-exceeded',
  'messaging/quota-exceeded',
  'app/network-error',
  'app/network-timeout',
]);

/**
 * An FCM refusal by firebase-admin's error code. A token FCM no longer knows (UNREGISTERED, or
 * one it cannot parse) is dead; the sender removes it.
 */
export function fcmRefusal(errorCode: string | undefined): PushRefusal {
  if (
    errorCode === 'messaging/registration-token-not-registered' ||
    errorCode === 'messaging/invalid-registration-token'
  )
    return refusal('INVALID_FCM_TOKEN', true, false);
  return refusal('UNKNOWN', false, errorCode === undefined || FCM_TRANSIENT.has(errorCode));
}

/**
 * An APNs refusal by status and reason (Apple's "Handling notification responses from APNs").
 * 410 Unregistered and BadDeviceToken mean the token is dead; DeviceTokenNotForTopic is a token of
 * another app (wrong, but not dead: the user may have sent it to the wrong environment).
 */
export function apnsRefusal(status: number | undefined, reason: string | undefined): PushRefusal {
  if (status === 410 || reason === 'Unregistered' || reason === 'BadDeviceToken')
    return refusal('INVALID_APN_TOKEN', true, false);
  if (reason === 'DeviceTokenNotForTopic') return refusal('INVALID_APN_TOKEN', false, false);
  const transient = status === undefined || status === 429 || status >= 500;
  return refusal('UNKNOWN', false, transient);
}

/**
 * A push service's answer to a web push (RFC 8030): 404 and 410 mean the subscription is gone
 * (spelled as the spec spells the code); 429 and 5xx may pass; no answer at all may pass too.
 */
export function webPushRefusal(statusCode: number | undefined): PushRefusal {
  if (statusCode === 404 || statusCode === 410) return refusal('UNSUBSCIRBED_OR_EXPIRED', true, false);
  const transient = statusCode === undefined || statusCode === 429 || statusCode >= 500;
  return refusal('UNKNOWN', false, transient);
}
