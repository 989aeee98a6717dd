import { isIP } from 'node:net';
import { z } from 'zod';
import { parseSecretKey } from '../secrets/secret-box';

/** Reusable variable shapes: each message says what a valid value looks like. */
export const envInt = (min: number, max: number) =>
  z.coerce
    .number({ message: `expected an integer between ${min} and ${max}` })
    .int({ message: `expected an integer between ${min} and ${max}` })
    .min(min, { message: `expected an integer between ${min} and ${max}` })
    .max(max, { message: `expected an integer between ${min} and ${max}` });

export const envPort = envInt(0, 65535);

export const envBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const hostPort = /^[A-Za-z0-9.-]+:\d{1,5}$/;
/** A comma-separated broker list such as `kafka-0:9092,kafka-1:9092`. */
export const envHostPortList = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()))
  .refine((list) => list.length > 0 && list.every((entry) => hostPort.test(entry)), {
    message: 'expected a comma-separated list of host:port',
  });

/**
 * Comma-separated DNS servers as Node's resolver takes them: `ip:port` or `[ipv6]:port` (a resolver
 * is addressed by IP; a name would need a resolver to find it), at most 8.
 */
export const envDnsServers = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()))
  .refine(
    (list) =>
      list.length > 0 &&
      list.length <= 8 &&
      list.every((entry) => {
        const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([0-9.]+)):(\d{1,5})$/.exec(entry);
        const ip = match?.[1] ?? match?.[2];
        return ip !== undefined && isIP(ip) !== 0 && Number(match?.[3]) > 0 && Number(match?.[3]) < 65_536;
      }),
    { message: 'expected up to 8 comma-separated ip:port (or [ipv6]:port) entries' },
  );

/** Comma-separated delays in milliseconds, e.g. `0,5000,300000`: each from 0 to a day, 1 to 20 of them. */
export const envDelayList = z
  .string()
  .transform((v) => v.split(',').map((s) => Number(s.trim())))
  .refine(
    (list) =>
      list.length >= 1 &&
      list.length <= 20 &&
      list.every((n) => Number.isInteger(n) && n >= 0 && n <= 86_400_000),
    { message: 'expected 1 to 20 comma-separated delays in milliseconds (0 to 86400000)' },
  );

export const envUrl = (protocols: readonly string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    { message: `expected a URL with scheme ${protocols.join(' or ')}` },
  );

/** 32 bytes in base64 (`openssl rand -base64 32`): the key that seals provider credentials. */
export const envSecretKey = z.string().transform((value, ctx) => {
  try {
    return parseSecretKey(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/** Older keys, comma-separated, that still open credentials sealed before a rotation. */
export const envSecretKeyList = z.string().transform((value, ctx) => {
  const keys: Buffer[] = [];
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)) {
    try {
      keys.push(parseSecretKey(part));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `each key: ${(error as Error).message}` });
      return z.NEVER;
    }
  }
  return keys;
});

const cidr = /^[0-9a-fA-F.:]+(\/\d{1,3})?$/;
/**
 * Which proxies' X-Forwarded-For to believe (Fastify trustProxy): false (none, the default: a
 * client cannot forge its logged address), true (any), a hop count, or a comma-separated list of
 * addresses and CIDR ranges.
 */
export const envTrustProxy = z.string().transform((value, ctx): boolean | number | string[] => {
  const text = value.trim();
  if (['false', '0', 'no'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return true;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const list = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (list.length > 0 && list.every((entry) => cidr.test(entry))) return list;
  ctx.addIssue({
    code: 'custom',
    message: 'expected false, true, a hop count, or comma-separated addresses/CIDRs',
  });
  return z.NEVER;
});

/**
 * Comma-separated IP addresses or networks in CIDR notation, e.g. `192.0.2.10,198.51.100.0/24,2001:db8::/32`.
 */
export const envAddressList = z.string().transform((value, ctx): string[] => {
  const list = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const bad = list.find((entry) => !isAddressOrNetwork(entry));
  if (bad === undefined) return list;
  ctx.addIssue({
    code: 'custom',
    message: `expected IP addresses or networks (CIDR), comma-separated (got "${bad.slice(0, 64)}")`,
  });
  return z.NEVER;
});

function isAddressOrNetwork(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

const rateEntry = /^([A-Z]{2}|\*)=(\d+(\.\d+)?)$/;
/**
 * A price per unit by country, e.g. `US=0.0083,CA=0.0083,GB=0.04,*=0.05` (ISO 3166 codes; `*` for
 * every other country). Units are what the variable says (an SMS segment, an MMS, a call minute).
 */
export const envRateTable = z.string().transform((value, ctx): Record<string, number> => {
  const table: Record<string, number> = {};
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)) {
    const match = rateEntry.exec(entry);
    if (match === null) {
      ctx.addIssue({
        code: 'custom',
        message: `expected COUNTRY=price entries such as US=0.0083,*=0.05 (got "${entry}")`,
      });
      return z.NEVER;
    }
    table[match[1] ?? '*'] = Number(match[2]);
  }
  return table;
});

/**
 * Stripe price ids and the budget tier each stands for: `price_123=budget_20,price_456=budget_50`
 * (at most 32). Billing checks the tier names against its tiers when it starts.
 */
export const envPriceTiers = z.string().transform((value, ctx): Record<string, string> => {
  const table: Record<string, string> = {};
  const entries = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  for (const entry of entries) {
    const match = /^([A-Za-z0-9_]{1,255})=(budget_\d{1,5})$/.exec(entry);
    if (match === null || entries.length > 32) {
      ctx.addIssue({
        code: 'custom',
        message: `expected at most 32 PRICE_ID=budget_N entries such as price_123=budget_20 (got "${entry.slice(0, 64)}")`,
      });
      return z.NEVER;
    }
    table[match[1] ?? ''] = match[2] ?? '';
  }
  return table;
});

/** A JSON object of per-message prices in USD by channel name, e.g. `{"EMAIL":0.0004,"PUSH":0}`. */
export const envChannelRates = z.string().transform((value, ctx): Record<string, number> => {
  const parsed = z
    .record(z.string().regex(/^[A-Z_]{1,32}$/), z.number().min(0).max(100))
    .refine((table) => Object.keys(table).length <= 32)
    .safeParse(parseJsonOrUndefined(value));
  if (parsed.success) return parsed.data;
  ctx.addIssue({
    code: 'custom',
    message: 'expected a JSON object of channel names (EMAIL, SMS, …) to USD prices from 0 to 100',
  });
  return z.NEVER;
});

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
