/*
 * Checks of untrusted text written as single linear scans. No user-supplied string meets a
 * backtracking regular expression: patterns such as /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/ take
 * quadratic time on crafted input (80,000 newlines and one bad byte cost 14.6 s of CPU).
 */

const isBase64Char = (code: number) =>
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  code === 43 ||
  code === 47;
const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

/** Base64 as attachments carry it: the alphabet with line breaks anywhere, at most two `=` at the end. */
export function isBase64(text: string): boolean {
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) continue;
    if (code === 61) {
      if (++padding > 2) return false;
    } else if (padding > 0 || !isBase64Char(code)) {
      return false;
    }
  }
  return true;
}

/** Characters never allowed in the parts of an address we send to (they would split or quote it). */
const FORBIDDEN_IN_ADDRESS = new Set([...' \t\r\n@<>()[],;:"\\'].map((c) => c.charCodeAt(0)));

/**
 * One plain email address: `local@domain.tld`, no display name, no list, no quoting, no control
 * characters. Deliberately stricter than RFC 5322: anything else is refused rather than handed to
 * an SMTP library that might read a list or a header out of it.
 */
export function isEmailAddress(text: string): boolean {
  if (text.length < 3 || text.length > 320) return false;
  let at = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code === 127) return false;
    if (code === 64) {
      if (at >= 0) return false;
      at = i;
    } else if (FORBIDDEN_IN_ADDRESS.has(code)) {
      return false;
    }
  }
  const domain = text.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return (
    at > 0 &&
    at <= 64 &&
    dot > 0 &&
    dot < domain.length - 1 &&
    !domain.startsWith('.') &&
    !domain.includes('..')
  );
}

/** Whether text contains a line break or other control character (header injection). */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code === 127) return true;
  }
  return false;
}
