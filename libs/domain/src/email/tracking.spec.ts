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
    expect(readTrackingToken(token, [key])).toEqual(payload);
    const [body, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, l: 'https://evil.test' })).toString('base64url');
    expect(readTrackingToken(`${forged}.${signature}`, [key])).toBeUndefined();
    expect(readTrackingToken(`${body}.${signature?.slice(1)}`, [key])).toBeUndefined();
    expect(readTrackingToken(token, [trackingKey(randomBytes(32))])).toBeUndefined();
    expect(readTrackingToken('x'.repeat(5_000), [key])).toBeUndefined();
    expect(readTrackingToken('not-a-token', [key])).toBeUndefined();
  });

  it('reads a token signed before a rotation with the key rotated out, and none without it', () => {
    const newer = trackingKey(randomBytes(32));
    const token = signTrackingToken(payload, key);
    expect(readTrackingToken(token, [newer, key])).toEqual(payload);
    expect(readTrackingToken(token, [newer])).toBeUndefined();
    expect(readTrackingToken(token, [])).toBeUndefined();
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

  it('rewrites the worst 1 MB of HTML in under 200 ms', () => {
    const mb = (unit: string) => unit.repeat(Math.ceil(1_000_000 / unit.length)).slice(0, 1_000_000);
    const shapes = [
      mb('<a href="http://x" '),
      mb('<a href="http://x'),
      mb("<a href='http://x' data-link-tags='a "),
      mb('<a x=1 y=2 z '),
      mb('<a href="http://x.test/" data-link-tags="a,b">y</a>'),
      `<a ${mb('a=b ')}`,
      `<a${mb(' href')}`,
      mb('<A\thref="http://x"/'),
    ];
    // Compiled first, as in a running service: what is timed is the scan.
    addEmailTracking('<a href="http://x.test/">x</a>', 'https://notify.test', () => 'T');
    for (const html of shapes) {
      const started = performance.now();
      addEmailTracking(html, 'https://notify.test', () => 'T');
      expect(performance.now() - started).toBeLessThan(200);
    }
  });

  it('reads attributes as HTML does: quoted values may hold > and other quotes, unterminated tags are left alone', () => {
    const links: (string | undefined)[] = [];
    const out = addEmailTracking(
      '<a title="a > b" href="https://a.test/">1</a>' +
        '<abbr href="https://c.test/">3</abbr><a href="https://d.test/" href="https://e.test/">4</a>' +
        '<a data-x="1" href="https://f.test/"',
      'https://n.test',
      (_kind, link) => {
        links.push(link);
        return `T${links.length}`;
      },
    );
    expect(links).toEqual(['https://a.test/', 'https://d.test/', undefined]);
    expect(out).toContain('<a title="a > b" href="https://n.test/t/c/T1">1</a>');
    expect(out).toContain('<abbr href="https://c.test/">3</abbr>');
    expect(out).toContain('<a href="https://n.test/t/c/T2" href="https://e.test/">4</a>');
    expect(out).toContain('<a data-x="1" href="https://f.test/"');
  });
});
