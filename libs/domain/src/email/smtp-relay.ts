import { maskSecret } from '@notify/util';
import { z } from 'zod';
import { InvalidProviderSettingError, type ProviderSettingKind } from '../provider-settings/provider-setting';

/** An SMTP relay as explicit connection options: nothing else reaches the SMTP client. */
export interface SmtpRelay {
  /** TLS from the first byte (smtps, usually port 465); otherwise STARTTLS when offered. */
  readonly secure: boolean;
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
}

const MAX_URL = 2_048;
const MAX_CREDENTIAL = 512;

/** The typed options as they are stored (sealed), and checked again when read back. */
export const smtpRelaySchema = z.strictObject({
  secure: z.boolean(),
  host: z.string().min(1).max(MAX_URL),
  port: z.number().int().min(1).max(65_535),
  username: z.string().max(MAX_CREDENTIAL).optional(),
  password: z.string().max(MAX_CREDENTIAL).optional(),
}) satisfies z.ZodType<SmtpRelay>;
const FIX =
  'Give smtp://user:password@host:port or smtps://user:password@host:port, with nothing after the port.';

function decoded(part: string, what: string, field: string): string | undefined {
  if (part === '') return undefined;
  let value: string;
  try {
    value = decodeURIComponent(part);
  } catch {
    throw new InvalidProviderSettingError(field, `the ${what} is not valid percent-encoding`, FIX);
  }
  if (value.length > MAX_CREDENTIAL)
    throw new InvalidProviderSettingError(
      field,
      `the ${what} is longer than ${MAX_CREDENTIAL} characters`,
      FIX,
    );
  return value;
}

/**
 * Parses an SMTP relay URL into connection options. Query strings, fragments and paths are refused:
 * nodemailer would read query parameters as transport options (`?sendmail=true&path=…` runs a
 * program), and no option of ours travels that way.
 */
export function parseSmtpRelay(input: unknown, field = 'smtpUrl'): SmtpRelay {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_URL)
    throw new InvalidProviderSettingError(field, `expected a URL of at most ${MAX_URL} characters`, FIX);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new InvalidProviderSettingError(field, 'not a URL', FIX);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new InvalidProviderSettingError(field, 'the scheme must be smtp or smtps', FIX);
  if (url.search !== '' || input.includes('?'))
    throw new InvalidProviderSettingError(field, 'query options are not accepted', FIX);
  if (url.hash !== '' || input.includes('#'))
    throw new InvalidProviderSettingError(field, 'a fragment is not accepted', FIX);
  if (url.pathname !== '' && url.pathname !== '/')
    throw new InvalidProviderSettingError(field, 'a path is not accepted', FIX);
  if (url.hostname === '') throw new InvalidProviderSettingError(field, 'the host is missing', FIX);
  const secure = url.protocol === 'smtps:';
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  const username = decoded(url.username, 'user name', field);
  const password = decoded(url.password, 'password', field);
  return {
    secure,
    host: url.hostname,
    port,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
  };
}

/** The relay as a URL for reading back, with the password masked. */
export function describeSmtpRelay(relay: SmtpRelay): string {
  const user = relay.username === undefined ? '' : encodeURIComponent(relay.username);
  const password = relay.password === undefined ? '' : `:${maskSecret(relay.password)}`;
  const auth = user === '' && password === '' ? '' : `${user}${password}@`;
  return `${relay.secure ? 'smtps' : 'smtp'}://${auth}${relay.host}:${relay.port}`;
}

export const smtpRelaySetting: ProviderSettingKind<SmtpRelay> = {
  name: 'smtp',
  field: 'smtpUrl',
  parse: (input) => parseSmtpRelay(input),
  stored: smtpRelaySchema,
  destinations: (relay) => [relay.host],
  present: describeSmtpRelay,
};
