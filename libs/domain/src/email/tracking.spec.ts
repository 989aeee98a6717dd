import { randomBytes } from 'node:crypto';
import {
  addEmailTracking,
  readTrackingToken,
  signTrackingToken,
  trackingKey,
  type TrackingPayload,
} from './tracking';

const key = trackingKey(randomBytes(32));
const payload: TrackingPayload = {
  k: 'c',
  a: 'acct',
  e: 'env',
  t: 'track',
  u: 'ann',
  n: 'promo',
  l: 'https://x.test/a',
};

describe('email tracking', () => {
  it('reads back what it signed, and nothing tampered with, truncated or signed with another key', () => {
    const token = signTrackingToken(payload, key);
    expect(readTrackingToken(token, key)).toEqual(payload);
    const [body, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, l: 'https://evil.test' })).toString('base64url');
    expect(readTrackingToken(`${forged}.${signature}`, key)).toBeUndefined();
    expect(readTrackingToken(`${body}.${signature?.slice(1)}`, key)).toBeUndefined();
    expect(readTrackingToken(token, trackingKey(randomBytes(32)))).toBeUndefined();
    expect(readTrackingToken('x'.repeat(5_000), key)).toBeUndefined();
    expect(readTrackingToken('not-a-token', key)).toBeUndefined();
  });

  it('points http(s) links at the click tracker with their tags, leaves others, and adds the pixel before </body>', () => {
    const seen: { kind: string; link?: string; tags?: string[] }[] = [];
    const html =
      '<html><body><a class="btn" href="https://shop.test/p?a=1&amp;b=2" data-link-tags="promo, summer">Buy</a>' +
      '<a href="mailto:help@shop.test">Mail</a><a href=\'http://x.test/\'>x</a></body></html>';
    const out = addEmailTracking(html, 'https://notify.test', (kind, link, tags) => {
      seen.push({ kind, ...(link !== undefined ? { link } : {}), ...(tags !== undefined ? { tags } : {}) });
      return `T${seen.length}`;
    });
    expect(seen).toEqual([
      { kind: 'c', link: 'https://shop.test/p?a=1&b=2', tags: ['promo', 'summer'] },
      { kind: 'c', link: 'http://x.test/' },
      { kind: 'o' },
    ]);
    expect(out).toContain('<a class="btn" href="https://notify.test/t/c/T1" data-link-tags="promo, summer">');
    expect(out).toContain('<a href="mailto:help@shop.test">');
    expect(out).toContain("href='https://notify.test/t/c/T2'");
    expect(out).toMatch(/<img src="https:\/\/notify.test\/t\/o\/T3"[^>]*><\/body><\/html>$/);
  });
});
