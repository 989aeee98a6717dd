export { DnsPeer } from './dns-peer';
export { serveLocalDns } from './dns.local-peer';
export {
  DNS_RECORD_TYPES,
  type DnsRecord,
  dnsRecordProblem,
  DnsZone,
  ZONE_MAX_RECORDS_PER_NAME,
  ZONE_MAX_VALUE_LENGTH,
  zoneName,
} from './dns-zone';
