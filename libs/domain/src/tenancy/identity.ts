import { z } from 'zod';

/**
 * What a member of an account may do, from most to least: an owner also sets roles and copies
 * payment methods; an admin administers environments, keys, templates, webhooks and settings; a
 * member sends, manages users and reads.
 */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

/** Whether `role` may do what needs `required`. */
export const roleAllows = (role: Role, required: Role): boolean => RANK[role] >= RANK[required];

/**
 * A person who signs in with a JWT: one record across accounts, found by the token's `sub` once
 * bound, else by its email (lower-cased).
 */
export interface Person {
  readonly userId: string;
  readonly email: string;
  /** The identity provider's subject, bound on the person's first token. */
  readonly sub?: string;
  readonly createdAt: string;
}

/** A person's place in one account. */
export interface Membership {
  readonly accountId: string;
  readonly userId: string;
  readonly role: Role;
  readonly createdAt: string;
  readonly updatedAt: string;
}

const MEMBER_ACTOR = 'member:';

/**
 * How a member is named where an API key's id would otherwise stand (the tenant a request acts
 * as, who sent an invitation or a mail): `member:<userId>`.
 */
export const memberActor = (userId: string): string => `${MEMBER_ACTOR}${userId}`;

/** The userId of the member an actor names; undefined for anything else (an API key's id). */
export const memberOfActor = (actor: string): string | undefined =>
  actor.startsWith(MEMBER_ACTOR) ? actor.slice(MEMBER_ACTOR.length) : undefined;

/** One spelling of an email address for identity: trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
