import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * Names no public resolver answers for (RFC 6761, RFC 6762, RFC 8375 and common private
 * suffixes): a "domain" there proves nothing, and looking it up reaches the local network.
 */
const PRIVATE_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'invalid',
  'arpa',
  'onion',
  'lan',
  'home',
  'corp',
];

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A label of a DNS record's name may also hold "_" (`_domainkey`, `_spf`, `_dmarc`). */
const RECORD_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?$/;
/** A top-level label begins with a letter (an IDNA one with `xn--`): never all digits, so never an IP. */
const TOP_LABEL = /^[a-z](?:[a-z0-9-]{0,61}[a-z0-9])$/;

export interface DomainNameRule {
  /** Labels may hold "_": the name of a DNS record (`sel._domainkey.example.com`) rather than a host. */
  readonly recordName?: boolean;
  /** Names under private suffixes (`.localhost`, `.local`…) are taken: a local resolver's own. */
  readonly privateNames?: boolean;
}

const SHAPE = 'expected a domain name such as example.com (letters, digits and "-" between dots)';

/**
 * The one domain-name rule: the name as DNS holds it (lower case, IDNA ASCII for a Unicode name,
 * no root dot), or why it is none. At least two labels of up to 63 characters, 253 in all; no IP
 * address; a top-level label that begins with a letter; no private suffix unless the rule allows.
 */
export function domainName(
  text: string,
  rule: DomainNameRule = {},
): { domain: string } | { problem: string } {
  const host = text.trim().replace(/\.$/, '');
  if (host === '') return { problem: SHAPE };
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0)
    return { problem: 'expected a domain name, not an IP address' };
  if (host.length > 253) return { problem: 'expected a domain name of up to 253 characters' };
  const ascii = domainToASCII(host.toLowerCase());
  if (ascii === '') return { problem: SHAPE };
  if (ascii.length > 253) return { problem: 'expected a domain name of up to 253 characters' };
  const labels = ascii.split('.');
  const tld = labels[labels.length - 1] ?? '';
  if (/^\d+$/.test(tld)) return { problem: 'expected a domain name, not an IP address' };
  const label = rule.recordName === true ? RECORD_LABEL : LABEL;
  if (labels.length < 2 || !labels.slice(0, -1).every((l) => label.test(l)) || !TOP_LABEL.test(tld))
    return { problem: SHAPE };
  if (rule.privateNames !== true && PRIVATE_SUFFIXES.includes(tld))
    return { problem: `.${tld} names are not public domains` };
  return { domain: ascii };
}
