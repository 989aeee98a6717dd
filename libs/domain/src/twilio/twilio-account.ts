import { maskSecret } from '@notify/util';
import { z } from 'zod';
import { normalizePhoneNumber } from '../phone/phone-number';
import { InvalidProviderSettingError, type ProviderSettingKind } from '../provider-settings/provider-setting';

/** An environment's own Twilio account: what its SMS and calls are sent with. */
export interface TwilioAccount {
  readonly accountSid: string;
  readonly authToken: string;
  /** The default sender number (E.164). */
  readonly fromNumber?: string;
  readonly messagingServiceSid?: string;
  /** Other numbers of the account a send may choose with `sms.from`. */
  readonly numbers: readonly string[];
}

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/);
export const twilioAccountSchema = z.strictObject({
  accountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/),
  authToken: z.string().regex(/^[0-9a-fA-F]{32}$/),
  fromNumber: e164.optional(),
  messagingServiceSid: z
    .string()
    .regex(/^MG[0-9a-fA-F]{32}$/)
    .optional(),
  numbers: z.array(e164).max(100),
}) satisfies z.ZodType<TwilioAccount>;

const inputSchema = z.strictObject({
  accountSid: z.string().max(64),
  authToken: z.string().max(64),
  fromNumber: z.string().max(32).optional(),
  messagingServiceSid: z.string().max(64).optional(),
  numbers: z.array(z.string().max(32)).max(100).optional(),
});
const FIX =
  'Give {accountSid: "AC…", authToken: "…", fromNumber: "+1…"} from the Twilio console (and messagingServiceSid or numbers if you use them).';

function number(field: string, value: string): string {
  const normalized = normalizePhoneNumber(value);
  if (normalized === undefined)
    throw new InvalidProviderSettingError(field, `"${value}" is not a phone number`, FIX);
  return normalized;
}

export function parseTwilioAccount(input: unknown): TwilioAccount {
  const given = inputSchema.safeParse(input);
  if (!given.success)
    throw new InvalidProviderSettingError('twilio', given.error.issues[0]?.message ?? 'not an object', FIX);
  const { accountSid, authToken, fromNumber, messagingServiceSid, numbers } = given.data;
  if (!/^AC[0-9a-fA-F]{32}$/.test(accountSid))
    throw new InvalidProviderSettingError('twilio.accountSid', 'expected AC followed by 32 hex digits', FIX);
  if (!/^[0-9a-fA-F]{32}$/.test(authToken))
    throw new InvalidProviderSettingError('twilio.authToken', 'expected 32 hex digits', FIX);
  if (messagingServiceSid !== undefined && !/^MG[0-9a-fA-F]{32}$/.test(messagingServiceSid))
    throw new InvalidProviderSettingError(
      'twilio.messagingServiceSid',
      'expected MG followed by 32 hex digits',
      FIX,
    );
  if (fromNumber === undefined && messagingServiceSid === undefined)
    throw new InvalidProviderSettingError('twilio', 'give fromNumber or messagingServiceSid', FIX);
  return {
    accountSid,
    authToken,
    ...(fromNumber !== undefined ? { fromNumber: number('twilio.fromNumber', fromNumber) } : {}),
    ...(messagingServiceSid !== undefined ? { messagingServiceSid } : {}),
    numbers: (numbers ?? []).map((n) => number('twilio.numbers', n)),
  };
}

/** Whether a send may use `from`: the account's default number or one of its listed numbers. */
export const ownsNumber = (account: Pick<TwilioAccount, 'fromNumber' | 'numbers'>, from: string): boolean =>
  from === account.fromNumber || account.numbers.includes(from);

export const twilioAccountSetting: ProviderSettingKind<TwilioAccount> = {
  name: 'twilio',
  field: 'twilio',
  parse: parseTwilioAccount,
  stored: twilioAccountSchema,
  // The SDK talks to Twilio's own API host only; nothing tenant-given is a destination.
  destinations: () => [],
  present: (account) =>
    [
      `${account.accountSid.slice(0, 6)}…${account.accountSid.slice(-4)}`,
      `token ${maskSecret(account.authToken)}`,
      ...(account.fromNumber !== undefined ? [`from ${account.fromNumber}`] : []),
      ...(account.messagingServiceSid !== undefined ? [`service ${account.messagingServiceSid}`] : []),
    ].join(', '),
};
