import { BlockList, isIP } from 'node:net';

/**
 * IPv4 networks a server-side request must not reach by default: RFC 6890 special-purpose ranges
 * (this network, private, shared CGN, loopback, link-local, IETF protocol assignments, benchmarking,
 * documentation, multicast, reserved, broadcast).
 */
const BLOCKED_V4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(network, prefix, 'ipv4');
}

/**
 * IPv6 networks blocked outright: unspecified and loopback, unique-local, link-local, site-local
 * (deprecated, still routed by some stacks), multicast, documentation, discard-only, Teredo (its
 * client address is obfuscated, so the IPv4 behind it cannot be checked), ORCHID, and NAT64's
 * local-use prefix.
 */
const BLOCKED_V6: readonly (readonly [string, number])[] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  ['2001::', 32],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['64:ff9b:1::', 48],
];

/**
 * IPv6 forms that carry an IPv4 address, and where it sits (byte offset): IPv4-compatible (::/96),
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96) and 6to4
 * (2002::/16). A packet to one of these may end up at the embedded IPv4 address, so that address
 * decides.
 */
const EMBEDDED_V4: readonly (readonly [string, number, number])[] = [
  ['::', 96, 12],
  ['::ffff:0:0', 96, 12],
  ['::ffff:0:0:0', 96, 12],
  ['64:ff9b::', 96, 12],
  ['2002::', 16, 2],
];

/** The 16 bytes of an IPv6 address (zone id dropped), or undefined if it is not one. */
export function ipv6Bytes(address: string): Uint8Array | undefined {
  let text = address.replace(/%.*$/, '');
  if (isIP(text) !== 6) return undefined;
  // A trailing dotted quad (::ffff:1.2.3.4) is the last two words.
  text = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((w) => w.toString(16)).join(':'),
  );
  const [head = '', tail] = text.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const left = words(head);
  const right = tail === undefined ? [] : words(tail);
  const all = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((word, i) => {
    bytes[i * 2] = (word >> 8) & 0xff;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return bytes;
}

function inPrefix(bytes: Uint8Array, network: Uint8Array, prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const mask = prefix - bit >= 8 ? 0xff : (0xff << (8 - (prefix - bit))) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((network[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

const blockedV6 = BLOCKED_V6.map(([network, prefix]) => [ipv6Bytes(network), prefix] as const);
const embeddedV4 = EMBEDDED_V4.map(
  ([network, prefix, offset]) => [ipv6Bytes(network), prefix, offset] as const,
);

/**
 * Whether a server-side request to `address` must be refused by default: private, loopback,
 * link-local and every other special-purpose address, in either family and in every IPv6 form that
 * embeds an IPv4 address. Anything that is not an IP address counts as private (refused).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return BLOCKED_V4.check(address, 'ipv4');
  const bytes = family === 6 ? ipv6Bytes(address) : undefined;
  if (bytes === undefined) return true;
  for (const [network, prefix] of blockedV6) {
    if (network !== undefined && inPrefix(bytes, network, prefix)) return true;
  }
  for (const [network, prefix, offset] of embeddedV4) {
    if (network !== undefined && inPrefix(bytes, network, prefix)) {
      return BLOCKED_V4.check([...bytes.slice(offset, offset + 4)].join('.'), 'ipv4');
    }
  }
  return false;
}
