export { DnsResolver } from './dns-resolver';
export { DnsModule } from './dns.module';
