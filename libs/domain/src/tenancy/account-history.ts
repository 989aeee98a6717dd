import { z } from 'zod';

/**
 * Something that happened to an account, kept in its history (newest first): a review outcome of
 * its 10DLC brand, and whatever else an area records there. `type` is dotted, area first
 * (`10dlc.brand.approved`); `details` are short strings the area chooses.
 */
export interface AccountEvent {
  readonly at: string;
  readonly type: string;
  /** Who did it: `member:<userId>`, `key:<keyId>` or `operator` (the service's operator). */
  readonly actor: string;
  readonly details: Readonly<Record<string, string>>;
}

/** Events kept per account: the newest, older ones overwritten. */
export const ACCOUNT_HISTORY_KEEP = 500;

/** The service's operator, acting outside any tenant (operator routes). */
export const OPERATOR_ACTOR = 'operator';

/** How an API key is named as an actor in an account's history. */
export const keyActor = (keyId: string): string => `key:${keyId}`;

/** `GET /account/history?limit=`: 50 by default, at most what is kept. */
export const accountHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ACCOUNT_HISTORY_KEEP).default(50),
});
