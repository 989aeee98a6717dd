import { domainName } from '@notify/util';

/** The record types the local DNS peer serves. */
export const DNS_RECORD_TYPES = ['TXT', 'CNAME', 'MX'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** One answer: TXT text, a CNAME target, or an MX as `<preference> <exchange>` (`10 mx.example.com`). */
export interface DnsRecord {
  readonly type: DnsRecordType;
  readonly value: string;
}

/** Bounds of what a zone holds, so loading it cannot grow memory without limit. */
export const ZONE_MAX_NAMES = 1_000;
export const ZONE_MAX_RECORDS_PER_NAME = 10;
export const ZONE_MAX_VALUE_LENGTH = 2_048;

/** A CNAME target or MX exchange: the one domain-name rule, local names included (a local peer serves them). */
const isHostName = (text: string): boolean =>
  'domain' in domainName(text, { recordName: true, privateNames: true });
/** One line of printable ASCII text: what a zone file holds. */
const PRINTABLE = /^[\x20-\x7e]+$/;
const MAX_MX_PREFERENCE = 65_535;

/**
 * Why a record cannot be served, or undefined when it can: a TXT is one line of printable text of
 * at most ZONE_MAX_VALUE_LENGTH, a CNAME a host name, an MX `<preference> <exchange>` with an
 * integer preference of 0 to 65535 (what the wire format holds) and a host name.
 */
export function dnsRecordProblem(record: DnsRecord): string | undefined {
  const value = record.value;
  if (value.length === 0 || value.length > ZONE_MAX_VALUE_LENGTH || !PRINTABLE.test(value))
    return `expected printable ASCII on one line, of 1 to ${ZONE_MAX_VALUE_LENGTH} characters`;
  if (record.type === 'CNAME')
    return isHostName(value) ? undefined : 'expected a host name such as mx.example.com';
  if (record.type === 'MX') {
    const parts = value.trim().split(/\s+/);
    const preference = Number(parts[0]);
    if (parts.length !== 2 || !/^\d{1,5}$/.test(parts[0] ?? '') || preference > MAX_MX_PREFERENCE)
      return `expected "<preference> <exchange>" with a preference of 0 to ${MAX_MX_PREFERENCE}, such as "10 mx.example.com"`;
    return isHostName(parts[1] ?? '') ? undefined : 'expected an exchange host name such as mx.example.com';
  }
  return undefined;
}

/** A name as the zone keys it: lower case, without the root's trailing dot. */
export const zoneName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/**
 * The names the local DNS peer answers for, and their records. A name's records are replaced
 * whole; loading no records removes the name (it answers NXDOMAIN again).
 */
export class DnsZone {
  private readonly names = new Map<string, readonly DnsRecord[]>();

  /** Replaces the records of `name`; false when the zone holds ZONE_MAX_NAMES other names already. */
  load(name: string, records: readonly DnsRecord[]): boolean {
    const key = zoneName(name);
    if (records.length === 0) {
      this.names.delete(key);
      return true;
    }
    if (!this.names.has(key) && this.names.size >= ZONE_MAX_NAMES) return false;
    this.names.set(
      key,
      records
        .slice(0, ZONE_MAX_RECORDS_PER_NAME)
        .map((r) => ({ type: r.type, value: r.value.slice(0, ZONE_MAX_VALUE_LENGTH) })),
    );
    return true;
  }

  /** The records of `name`; undefined when the zone does not hold it. */
  records(name: string): readonly DnsRecord[] | undefined {
    return this.names.get(zoneName(name));
  }
}
