import { domainToASCII } from 'node:url';
import { domainName } from '@notify/util';
import { z } from 'zod';
import { domainOrIssue } from './domain-name.schema';
import { REPORTS_MAILBOX } from './inbound-email';
import { getPublicSuffix } from 'tldts';

/**
 * Sending domains: a domain an environment sends mail from, proven by the DNS records its owner
 * publishes. See docs/api-behaviour.md (Sending domains) for the rules as users meet them.
 */
export type SendingDomainStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

/** An environment has at most this many sending domains. */
export const MAX_SENDING_DOMAINS = 20;
/** A domain still missing its records this long after it was added (or re-added) is FAILED. */
export const VERIFICATION_WINDOW_MS = 72 * 60 * 60 * 1_000;
/** A pending domain is looked up again on a read at most this often. */
export const RECHECK_ON_READ_MS = 10_000;
/** The coordination channel sending-domain changes are announced on. */
export const SENDING_DOMAINS_CHANGED_CHANNEL = 'sending-domains/changed';
/** The label of the return-path (bounce) host under a sending domain. */
export const RETURN_PATH_LABEL = 'notify-bounces';

/** The domain a sender names, or why it names none. */
export function sendingDomainOf(sender: string): { domain: string } | { problem: string } {
  const text = sender.trim();
  const host = text.includes('@') ? text.slice(text.lastIndexOf('@') + 1) : text;
  if (host === '') return { problem: 'expected a domain, or an email address on it' };
  const named = domainName(host);
  // Names under a public suffix (co.uk, github.io) belong to many owners: whoever added the suffix
  // would hold the records of all of them.
  if ('domain' in named && getPublicSuffix(named.domain, { allowPrivateDomains: true }) === named.domain)
    return { problem: `${named.domain} is a public suffix; add the domain you own under it` };
  return named;
}

/** `sender` of POST /domains and DELETE /domains/{sender}: a domain or an address on it, as its domain. */
export const senderDomainSchema = z.string().max(320).transform(domainOrIssue(sendingDomainOf));

/** A DNS record the domain's owner publishes. */
export interface DnsRecordToPublish {
  readonly type: 'TXT' | 'CNAME';
  readonly name: string;
  readonly value: string;
  /** What it is for: DKIM signs, SPF and DMARC are advice, RETURN_PATH takes bounces. */
  readonly purpose: 'DKIM' | 'SPF' | 'RETURN_PATH' | 'DMARC';
  /** Whether verification waits for it; the others are recommended. */
  readonly required: boolean;
}

/** What the installation adds to every domain's records. */
export interface RecordSettings {
  /** The SPF include of the installation's relays. */
  readonly spfInclude: string;
  /** The host bounces reach the inbound service at (our mail domain); no return path without one. */
  readonly returnPathTarget: string | undefined;
}

/** The DKIM selector of a new domain: its own, so two environments adding one domain never collide. */
export const dkimSelector = (random: Buffer): string => `notify${random.toString('hex').slice(0, 10)}`;

/** What a domain's private DKIM key is sealed against: it opens for this environment and domain only. */
export const dkimKeyContext = (scope: { accountId: string; envId: string }, domain: string) =>
  `${scope.accountId}/${scope.envId}/dkim/${domain}`;

export const dkimRecordName = (domain: string, selector: string) => `${selector}._domainkey.${domain}`;

export const returnPathHost = (domain: string) => `${RETURN_PATH_LABEL}.${domain}`;

/** The envelope sender of mail from a domain whose return path is published: its bounces come back to us. */
export const returnPathAddress = (domain: string) => `${REPORTS_MAILBOX}@${returnPathHost(domain)}`;

/** Whether an address is the reports mailbox on some sending domain's return path (a CNAME to our mail domain). */
export const isReturnPathAddress = (address: string): boolean => {
  const at = address.lastIndexOf('@');
  return (
    address.slice(0, at).toLowerCase() === REPORTS_MAILBOX &&
    address
      .slice(at + 1)
      .toLowerCase()
      .startsWith(`${RETURN_PATH_LABEL}.`)
  );
};

/** The DKIM key record's value for a public key (base64 of its DER SubjectPublicKeyInfo). */
export const dkimRecordValue = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;

/** The records to publish for a domain, the required ones first. */
export function recordsToPublish(
  domain: { domain: string; selector: string; publicKey: string; returnPathTarget?: string },
  settings: Pick<RecordSettings, 'spfInclude'>,
): DnsRecordToPublish[] {
  return [
    {
      type: 'TXT',
      name: dkimRecordName(domain.domain, domain.selector),
      value: dkimRecordValue(domain.publicKey),
      purpose: 'DKIM',
      required: true,
    },
    ...(domain.returnPathTarget === undefined
      ? []
      : [
          {
            type: 'CNAME' as const,
            name: returnPathHost(domain.domain),
            value: domain.returnPathTarget,
            purpose: 'RETURN_PATH' as const,
            required: true,
          },
        ]),
    {
      type: 'TXT',
      name: domain.domain,
      value: `v=spf1 include:${settings.spfInclude} ~all`,
      purpose: 'SPF',
      required: false,
    },
    {
      type: 'TXT',
      name: `_dmarc.${domain.domain}`,
      value: `v=DMARC1; p=none; rua=mailto:postmaster@${domain.domain}`,
      purpose: 'DMARC',
      required: false,
    },
  ];
}

/** What a lookup of one name answered: records, none (NXDOMAIN or no data), or no answer at all. */
export type LookupAnswer =
  | { readonly kind: 'records'; readonly values: readonly string[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly reason: string };

/** The lookups a check needs: the DKIM TXT and, with a return path, its CNAME. */
export interface DomainLookups {
  readonly dkim: LookupAnswer;
  readonly returnPath?: LookupAnswer;
}

type RecordVerdict = 'present' | 'missing' | 'wrong' | 'unknown';

/** The tags of a DKIM key record (RFC 6376 3.6.1), whitespace removed from values. */
function dkimTags(value: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) tags.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, ''));
  }
  return tags;
}

function dkimVerdict(answer: LookupAnswer, publicKey: string): RecordVerdict {
  if (answer.kind === 'error') return 'unknown';
  if (answer.kind === 'none') return 'missing';
  const keys = answer.values.map(dkimTags).filter((tags) => tags.has('p'));
  if (keys.some((tags) => tags.get('p') === publicKey && (tags.get('k') ?? 'rsa') === 'rsa'))
    return 'present';
  // Some other TXT at the key's name (not a key record) may be left over: still waiting.
  return keys.length > 0 ? 'wrong' : 'missing';
}

function cnameVerdict(answer: LookupAnswer, target: string): RecordVerdict {
  if (answer.kind === 'error') return 'unknown';
  if (answer.kind === 'none') return 'missing';
  const wanted = target.toLowerCase().replace(/\.$/, '');
  return answer.values.some((v) => v.toLowerCase().replace(/\.$/, '') === wanted) ? 'present' : 'wrong';
}

/** A domain as the verification rule sees it. */
export interface DomainUnderCheck {
  readonly publicKey: string;
  readonly returnPathTarget?: string;
  /** Epoch ms since which the domain has been waiting for its records. */
  readonly pendingSince: number;
}

export interface CheckOutcome {
  readonly status: SendingDomainStatus;
  /** The return-path record's own state (absent for a domain without one). */
  readonly mailFromStatus?: SendingDomainStatus;
  /** Why it is not SUCCESS, for the log and the API. */
  readonly reason?: string;
}

/**
 * The verification rule over what the lookups answered. SUCCESS when every required record is
 * published as listed (the DKIM key record carries our public key; the return-path CNAME points at
 * our bounce host). FAILED at once when a required record is published with another value (a key
 * record with another key, a CNAME elsewhere): that is an answer, not a delay. FAILED too when a
 * domain is still not verified VERIFICATION_WINDOW_MS after it started waiting, whatever the reason
 * (a record missing, or a resolver that never answered): the reason says which. Otherwise it stays
 * PENDING, also when a resolver did not answer (timeout, SERVFAIL): that is a delay, not an answer.
 */
export function verifySendingDomain(
  domain: DomainUnderCheck,
  lookups: DomainLookups,
  now: number,
): CheckOutcome {
  const dkim = dkimVerdict(lookups.dkim, domain.publicKey);
  const returnPath =
    domain.returnPathTarget === undefined
      ? undefined
      : cnameVerdict(
          lookups.returnPath ?? { kind: 'error', reason: 'not looked up' },
          domain.returnPathTarget,
        );
  const mailFromStatus = returnPath === undefined ? undefined : statusOf(returnPath);
  const withMailFrom = mailFromStatus === undefined ? {} : { mailFromStatus };
  if (dkim === 'wrong')
    return { status: 'FAILED', ...withMailFrom, reason: 'the DKIM record holds another public key' };
  if (returnPath === 'wrong')
    return { status: 'FAILED', ...withMailFrom, reason: 'the return-path CNAME points elsewhere' };
  if (dkim === 'present' && (returnPath === undefined || returnPath === 'present'))
    return { status: 'SUCCESS', ...withMailFrom };
  const unanswered = [lookups.dkim, lookups.returnPath].find((answer) => answer?.kind === 'error');
  const waiting =
    unanswered?.kind === 'error'
      ? `the DNS lookup did not answer (${unanswered.reason})`
      : dkim !== 'present'
        ? 'the DKIM record is not published yet'
        : 'the return-path CNAME is not published yet';
  if (now - domain.pendingSince >= VERIFICATION_WINDOW_MS)
    return { status: 'FAILED', ...withMailFrom, reason: `${waiting} (gave up after 72 hours)` };
  return { status: 'PENDING', ...withMailFrom, reason: waiting };
}

const statusOf = (verdict: RecordVerdict): SendingDomainStatus =>
  verdict === 'present' ? 'SUCCESS' : verdict === 'wrong' ? 'FAILED' : 'PENDING';

/** Whether a pending domain read now is due for another lookup. */
export const dueForRecheck = (lastSync: number, now: number, intervalMs: number): boolean =>
  now - lastSync >= intervalMs;

/**
 * The sender rule: why a From address may not be used, or undefined when it may. A From on a
 * SUCCESS sending domain of the environment, on the installation's default domain, or on a domain
 * of EMAIL_VERIFIED_DOMAINS (the operator's override) may. One on a domain the environment added
 * that is not verified may not; nor, when the operator lists verified domains, any other. With no
 * list, other domains go out unsigned, as before sending domains existed.
 */
export function unverifiedSender(
  fromAddress: string | undefined,
  context: {
    readonly defaultFrom?: string;
    readonly operatorDomains: readonly string[];
    readonly domainStatus?: SendingDomainStatus;
  },
): string | undefined {
  const domain = fromDomain(fromAddress);
  if (domain === undefined || context.domainStatus === 'SUCCESS') return undefined;
  if (domain === fromDomain(context.defaultFrom) || context.operatorDomains.includes(domain))
    return undefined;
  if (context.domainStatus !== undefined)
    return `${fromAddress ?? ''} is on ${domain}, a sending domain not verified (${context.domainStatus})`;
  if (context.operatorDomains.length > 0) return `${fromAddress ?? ''} is not on a verified sending domain`;
  return undefined;
}

/** The domain of an address as sending domains are stored (lower case, IDNA ASCII); undefined for none. */
export const fromDomain = (address: string | undefined): string | undefined => {
  if (address === undefined) return undefined;
  const at = address.lastIndexOf('@');
  if (at < 0) return undefined;
  const domain = address.slice(at + 1).toLowerCase();
  return domainToASCII(domain) || domain;
};
