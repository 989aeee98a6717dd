import { type DnsZone, serveLocalDns } from '@notify/local-peer-dns';
import type { OutboxSource } from '@notify/local-peer-kit';
import { LOCAL_PEERS } from '@notify/local-peers';
import type { AppConfig, Logger } from '@notify/platform';

export interface LocalPeers {
  readonly config: AppConfig;
  readonly outboxes: readonly OutboxSource[];
  /** One line per channel served locally, for the banner. */
  readonly served: readonly string[];
  /** The local DNS peer's names (`/dev/dns`), when it answers for sending domains. */
  readonly dnsZone?: DnsZone;
}

/**
 * The all-in-one service serves every channel whose provider is not configured through a local
 * peer that speaks the provider's real protocol; the senders use the real SDKs against
 * it, and `/dev/outbox/{channel}` shows what arrived. Nothing leaves the machine.
 */
/**
 * Local peers and the /dev routes are development stand-ins: they run only with DEV_MODE (which
 * `npm start` sets), never by default, since a peer reports every SMS "delivered" and the routes
 * show what it caught. Either way the start says which it is. Without them a channel with no
 * provider settings fails with its own "not configured" code instead of reaching a peer.
 */
export async function startDevStandIns(config: AppConfig, logger: Logger): Promise<LocalPeers> {
  if (!config.dev.enabled) {
    logger.info(
      { devMode: false },
      'DEV_MODE is off: no local provider peers and no /dev routes (test environments keep /dev/outbox); channels without provider settings fail as not configured',
    );
    return { config, outboxes: [], served: [] };
  }
  const peers = await startLocalPeers(config, logger);
  logger.warn(
    { devMode: true, channels: peers.served },
    'DEV_MODE is on: local provider peers serve channels without provider settings and /dev routes are open (development only; never expose this service)',
  );
  return peers;
}

async function startLocalPeers(given: AppConfig, logger: Logger): Promise<LocalPeers> {
  let config = given;
  const outboxes: OutboxSource[] = [];
  for (const peer of LOCAL_PEERS) {
    const served = await peer.serve(config, logger);
    if (served === undefined) continue;
    config = served.config;
    outboxes.push(...served.outboxes);
  }
  const dns = await serveLocalDns(config);
  return {
    config: dns?.config ?? config,
    outboxes,
    served: outboxes.map((outbox) => outbox.channel),
    ...(dns !== undefined ? { dnsZone: dns.zone } : {}),
  };
}

/**
 * Where providers reach this service (status callbacks): PUBLIC_URL, else the address it listens
 * on when that is known before it starts.
 */
export function withPublicUrl(config: AppConfig): AppConfig {
  if (config.http.publicUrl !== undefined || config.http.port === 0) return config;
  const host = config.http.host === '0.0.0.0' ? '127.0.0.1' : config.http.host;
  return { ...config, http: { ...config.http, publicUrl: `http://${host}:${config.http.port}` } };
}
