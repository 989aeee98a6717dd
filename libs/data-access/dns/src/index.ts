export {
  DNS_MAX_RECORDS,
  DNS_MAX_VALUE_LENGTH,
  DNS_TIMEOUT_MS,
  DNS_TRIES,
  DnsResolver,
} from './dns-resolver';
export { DnsModule } from './dns.module';
