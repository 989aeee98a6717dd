import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { anchorTags } from './html-anchors';

/**
 * What a tracking link stands for: an open (`o`), a click on `link` (`c`) or a
 * one-click unsubscribe (`u`) of one message, or the message itself (`m`, its X-Notify-Ref header,
 * which bounce and complaint reports quote back), signed so it is useless for any other message.
 */
const payloadSchema = z.object({
  k: z.enum(['o', 'c', 'u', 'm']),
  a: z.string(),
  e: z.string(),
  t: z.string(),
  u: z.string(),
  n: z.string(),
  l: z.string().optional(),
  g: z.array(z.string()).optional(),
});
export type TrackingPayload = z.infer<typeof payloadSchema>;

/** Tokens longer than this are refused unread (a click token carries its link). */
const MAX_TOKEN = 4_096;
const MAC_BYTES = 16;

/**
 * The key tracking tokens are signed with, derived from SECRETS_KEY (every service has it). A
 * KeyObject: an HMAC over a raw key first tries it as a KeyObject and catches the failure, which
 * costs several times the HMAC itself on a sender's deep async stacks (one per email).
 */
export const trackingKey = (secretsKey: Buffer): KeyObject =>
  createSecretKey(
    Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'notify email tracking v1', 32)),
  );

const mac = (key: KeyObject, body: string) =>
  createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);

export function signTrackingToken(payload: TrackingPayload, key: KeyObject): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/**
 * The payload of a token one of these keys signed (the current one and those rotated out), or
 * undefined (tampered, truncated, foreign).
 */
export function readTrackingToken(token: string, keys: readonly KeyObject[]): TrackingPayload | undefined {
  if (token.length > MAX_TOKEN) return undefined;
  const [body, signature, extra] = token.split('.');
  if (body === undefined || signature === undefined || extra !== undefined) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const signedBy = (key: KeyObject) => {
    const expected = mac(key, body);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (!keys.some(signedBy)) return undefined;
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** An http(s) link as tracking rewrites it: nothing that could end the attribute, and not huge. */
const TRACKABLE = /^https?:\/\/[^"'\s<>]{1,2000}$/i;
const MAX_LINK_TAGS = 500;
/** Links rewritten per message at most (a huge HTML body is not rewritten past this). */
const MAX_LINKS = 200;

const decodeEntities = (url: string) => url.replace(/&amp;/g, '&');

/**
 * The HTML with its http(s) links pointing at the click tracker (each link's `data-link-tags`,
 * comma-separated, travel with it) and an open pixel before `</body>` (or at the end). `token`
 * signs a payload for this message. Only a quoted `href` is rewritten, and only its value: the
 * rest of the document is copied as it was.
 */
export function addEmailTracking(
  html: string,
  base: string,
  token: (kind: 'o' | 'c', link?: string, tags?: string[]) => string,
): string {
  const parts: string[] = [];
  let copied = 0;
  let links = 0;
  for (const anchor of anchorTags(html, ['href', 'data-link-tags'])) {
    const href = anchor.attributes.get('href');
    if (href === undefined || href.quote === '' || !TRACKABLE.test(href.value)) continue;
    if (++links > MAX_LINKS) break;
    const tagged = anchor.attributes.get('data-link-tags');
    const tags =
      tagged === undefined || tagged.quote === '' || tagged.value.length > MAX_LINK_TAGS
        ? undefined
        : tagged.value
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t.length > 0)
            .slice(0, 20);
    parts.push(html.slice(copied, href.start), `${base}/t/c/${token('c', decodeEntities(href.value), tags)}`);
    copied = href.end;
  }
  parts.push(html.slice(copied));
  const rewritten = parts.join('');
  const pixel = `<img src="${base}/t/o/${token('o')}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
  const close = rewritten.search(/<\/body>/i);
  return close === -1
    ? `${rewritten}${pixel}`
    : `${rewritten.slice(0, close)}${pixel}${rewritten.slice(close)}`;
}
