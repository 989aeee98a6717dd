/**
 * What an inbound SMS means (Twilio's standard keywords): STOP and its synonyms opt the
 * number out, START and its synonyms opt it back in, anything else is a message. Case and
 * surrounding space do not matter; the keyword must be the whole message.
 */
export type InboundSmsKind =
  | { readonly kind: 'unsubscribe'; readonly keyword: string }
  | { readonly kind: 'subscribe'; readonly keyword: string }
  | { readonly kind: 'message' };

const UNSUBSCRIBE = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const SUBSCRIBE = new Set(['START', 'YES', 'UNSTOP']);

export function classifyInboundSms(text: string): InboundSmsKind {
  const word = text.trim().toUpperCase();
  if (UNSUBSCRIBE.has(word)) return { kind: 'unsubscribe', keyword: word };
  if (SUBSCRIBE.has(word)) return { kind: 'subscribe', keyword: word };
  return { kind: 'message' };
}

/** A number that replied STOP to an environment, until it replies START (coordination store, no expiry in practice). */
export const smsOptOutKey = (accountId: string, envId: string, number: string) =>
  `sms-optout/${accountId}/${envId}/${number}`;

/**
 * Which environment last texted a user's number from a service number: how an inbound SMS to a
 * shared number (the installation's default) finds its environment.
 */
export const smsLastEnvironmentKey = (serviceNumber: string, userNumber: string) =>
  `sms-last-env/${serviceNumber}/${userNumber}`;
