import type { TwilioAccount } from '@notify/domain';
import { type AppConfig, readingKeys } from '@notify/platform';
import { createHmac } from 'node:crypto';

/** Twilio's magic sender number, valid with test credentials: test environments send from it. */
export const SANDBOX_FROM_NUMBER = '+15005550006';

const derived = (key: Buffer, purpose: string) =>
  createHmac('sha256', key).update(purpose).digest('hex').slice(0, 32);

/**
 * The Twilio account of the sandbox peers, which take a test environment's sends so nothing leaves
 * the service: derived from SECRETS_KEY, so the sender that runs the peer and the gateway that
 * checks its signed callbacks agree on it without sharing anything else, and nobody without the key
 * can sign as it.
 */
export function sandboxTwilioAccount(config: AppConfig): TwilioAccount {
  const key = config.secrets.key;
  if (key === undefined)
    throw new Error('test environments need SECRETS_KEY (their sandbox credentials derive from it)');
  return accountOf(key);
}

/**
 * The sandbox accounts whose callbacks are taken: SECRETS_KEY's, then those of the keys rotated
 * out (SECRETS_PREVIOUS_KEYS), so a callback a peer signed before a rotation, or on a pod not yet
 * rolled, is still heard.
 */
export const sandboxTwilioAccounts = (config: AppConfig): TwilioAccount[] =>
  readingKeys(config.secrets).map(accountOf);

const accountOf = (key: Buffer): TwilioAccount => ({
  accountSid: `AC${derived(key, 'notify sandbox twilio account')}`,
  authToken: derived(key, 'notify sandbox twilio token'),
  fromNumber: SANDBOX_FROM_NUMBER,
  numbers: [],
});
