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
