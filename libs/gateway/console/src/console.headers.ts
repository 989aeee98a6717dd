/**
 * The console page's Content-Security-Policy: scripts, styles, images and calls from this origin only.
 * The one nonce is for the code editor, which adds its styles as `<style>` elements that carry it.
 * `frame-src 'self'` admits the email preview frame, which has a policy of its own.
 */
export const pagePolicy = (nonce: string): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

/**
 * The email preview frame's policy. It is loaded sandboxed (an opaque origin) and shows a rendered
 * email as a mail client would: the email's own inline styles and remote images, but none of its
 * scripts, and only inside the console.
 */
export const FRAME_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  'img-src data: https:',
  'font-src data: https:',
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Headers on every console response. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
