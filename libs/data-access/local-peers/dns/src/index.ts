export { DnsPeer } from './dns-peer';
export {
  DNS_RECORD_TYPES,
  type DnsRecord,
  type DnsRecordType,
  DnsZone,
  ZONE_MAX_NAMES,
  ZONE_MAX_RECORDS_PER_NAME,
  ZONE_MAX_VALUE_LENGTH,
  zoneName,
} from './dns-zone';
export { serveLocalDns } from './dns.local-peer';
