import type { AppConfig } from '@notify/platform';
import { DnsPeer } from './dns-peer';
import type { DnsZone } from './dns-zone';

/**
 * The all-in-one's DNS for sending domains when DNS_SERVERS is unset: a local authoritative peer
 * the configuration is pointed at, so a domain verifies against the records loaded with
 * `PUT /dev/dns/{name}`, with no registrar. Undefined when DNS_SERVERS names real resolvers.
 */
export async function serveLocalDns(
  config: AppConfig,
): Promise<{ config: AppConfig; zone: DnsZone } | undefined> {
  if (config.dns.servers.length > 0) return undefined;
  const peer = new DnsPeer();
  await peer.start();
  return { config: { ...config, dns: { ...config.dns, servers: [peer.server] } }, zone: peer.zone };
}
