import type { Refusal } from './mail-catcher';

/** Addresses waiting out their temporary refusals at once, at most (the oldest are forgotten). */
const MAX_TRACKED = 10_000;
const TEMPORARY_REFUSALS = 2;

/**
 * The local mail peer's rehearsal conventions (docs/api-behaviour.md): recipients `@bounce.test` are refused
 * for good (550 5.1.1, like a mailbox that does not exist), `@tempfail.test` twice with 451 and
 * then accepted (the sender's retries with backoff). `@complaint.test` is accepted here and
 * reported later (see reportComplaints). Each call gives a refusal policy with its own counts.
 */
export function rehearsalRefusals(): (address: string) => Refusal | undefined {
  const refusedSoFar = new Map<string, number>();
  return (address) => {
    const lower = address.toLowerCase();
    if (lower.endsWith('@bounce.test'))
      return { code: 550, message: `5.1.1 <${address}>: Recipient address rejected: User unknown` };
    if (!lower.endsWith('@tempfail.test')) return undefined;
    const refused = refusedSoFar.get(lower) ?? 0;
    if (refused >= TEMPORARY_REFUSALS) {
      refusedSoFar.delete(lower);
      return undefined;
    }
    refusedSoFar.set(lower, refused + 1);
    if (refusedSoFar.size > MAX_TRACKED) refusedSoFar.delete(refusedSoFar.keys().next().value ?? '');
    return { code: 451, message: '4.3.0 Mailbox temporarily unavailable, try again later' };
  };
}
