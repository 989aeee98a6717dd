import { z } from 'zod';
import { mailDomainSchema } from '../email/inbound-email';
import { emailAddressSchema } from '../sends/send-body';
import { type Role, roleAllows, roleSchema } from './identity';

/** A pending invitation of one email address to one account; a new one for the same address replaces it. */
export interface Invitation {
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
  /** SHA-256 of the token mailed in the link: the link is good while this record holds its hash. */
  readonly tokenHash: string;
  /** The member that invited, `member:<userId>`: the link works while they may still grant the role. */
  readonly invitedBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** A person's requested move to a new email address, waiting for the link mailed there. */
export interface EmailChange {
  readonly userId: string;
  readonly newEmail: string;
  readonly tokenHash: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** An email domain whose people join one account, as members, on their first sign-in. */
export interface AutoJoinDomain {
  readonly domain: string;
  readonly accountId: string;
  readonly createdAt: string;
}

export const MAX_AUTO_JOIN_DOMAINS = 20;

export const autoJoinBodySchema = z.object({
  domains: z
    .array(mailDomainSchema)
    .max(MAX_AUTO_JOIN_DOMAINS)
    .transform((domains) => [...new Set(domains)].sort()),
});
export type AutoJoinBody = z.output<typeof autoJoinBodySchema>;

export const inviteBodySchema = z.object({
  email: emailAddressSchema,
  role: roleSchema.optional(),
});
export type InviteBody = z.output<typeof inviteBodySchema>;

export const memberUpdateBodySchema = z.object({ role: roleSchema });

export const tokenBodySchema = z.object({ token: z.string().min(1).max(2_048) });

export const changeEmailBodySchema = z.object({ newEmail: emailAddressSchema });

/** `POST /console/sign-in`: the address a sign-in link for the web console is asked for. */
export const consoleSignInBodySchema = z.object({ email: emailAddressSchema });

/** `POST /console/session`: a sign-in link's token, or a JWT of the identity provider; exactly one. */
export const consoleSessionBodySchema = z
  .object({
    token: z.string().min(1).max(2_048).optional(),
    jwt: z.string().min(1).max(8_192).optional(),
  })
  .refine((body) => (body.token === undefined) !== (body.jwt === undefined), {
    message: 'expected either token (from a sign-in link) or jwt (from your identity provider), not both',
  })
  .transform((body): { token: string } | { jwt: string } =>
    body.token !== undefined ? { token: body.token } : { jwt: body.jwt ?? '' },
  );
export type ConsoleSessionBody = z.output<typeof consoleSessionBodySchema>;

/** The domain of an email address, lower-cased (`ann@Corp.Example` → `corp.example`). */
export const emailDomain = (email: string): string =>
  email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();

/**
 * Whether someone with `actor` may give `role` (by invitation or a role change): owners give any
 * role; admins give admin or member; members give none.
 */
export const mayGrantRole = (actor: Role, role: Role): boolean =>
  roleAllows(actor, 'admin') && roleAllows(actor, role);
