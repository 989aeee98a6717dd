import { ByteBudget, clientKey } from './smtp-admission';

describe('ByteBudget', () => {
  it('lets one client hold at most its share, leaving the rest for the others', () => {
    const budget = new ByteBudget(100, 40);
    const first = budget.lease('192.0.2.1', 30);
    expect(first).toBeDefined();
    // Declared sizes past the client's share are refused, whatever the budget has left.
    expect(budget.lease('192.0.2.1', 20)).toBeUndefined();
    expect(first?.take(30)).toBe(true);
    expect(first?.take(10)).toBe(true);
    // Growing past the share while reading is refused too.
    expect(first?.take(1)).toBe(false);
    // Another client still gets its own share.
    expect(budget.lease('198.51.100.1', 40)).toBeDefined();
    first?.release();
    expect(budget.lease('192.0.2.1', 40)).toBeDefined();
  });

  it('never gives out more than the whole budget', () => {
    const budget = new ByteBudget(100, 60);
    expect(budget.lease('a', 60)).toBeDefined();
    expect(budget.lease('b', 60)).toBeUndefined();
    expect(budget.lease('b', 40)).toBeDefined();
    expect(budget.lease('c', 1)).toBeUndefined();
  });
});

describe('clientKey', () => {
  it('counts an IPv4 address as itself, also when IPv4-mapped', () => {
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it("counts an IPv6 address by its /64, so a client's own addresses are one client", () => {
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:abcd:ef01:2345:6789')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
