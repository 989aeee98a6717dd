import { ipv6Bytes, isPrivateAddress } from './addresses';

describe('isPrivateAddress', () => {
  it.each([
    // IPv4 special-purpose ranges
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['198.18.0.1', true],
    ['203.0.113.7', true],
    ['255.255.255.255', true],
    // IPv6 blocked outright
    ['::', true],
    ['::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['fec0::1', true],
    ['ff02::1', true],
    ['2001:db8::1', true],
    ['2001:0:4136:e378::1', true],
    ['64:ff9b:1::1', true],
    // IPv4 embedded in IPv6: the IPv4 address decides
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::7f00:1', true],
    ['::127.0.0.1', true],
    ['::ffff:0:a00:1', true],
    ['::ffff:0:10.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::169.254.169.254', true],
    ['2002:7f00:1::1', true],
    ['2002:c0a8:101::', true],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::808:808', false],
    ['2002:808:808::1', false],
    // public
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['2606:4700::1111', false],
    ['2a00:1450:4001:80b::200e', false],
    // not an address at all
    ['localhost', true],
    ['', true],
  ])('%s → %p', (address, expected) => expect(isPrivateAddress(address)).toBe(expected));
});

describe('ipv6Bytes', () => {
  it('expands compressed forms and trailing dotted quads', () => {
    expect([...(ipv6Bytes('::ffff:1.2.3.4') ?? [])]).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4,
    ]);
    expect([...(ipv6Bytes('2001:db8::1') ?? [])].slice(0, 4)).toEqual([0x20, 0x01, 0x0d, 0xb8]);
    expect(ipv6Bytes('1.2.3.4')).toBeUndefined();
  });
});
