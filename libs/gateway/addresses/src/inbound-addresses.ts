import { Injectable } from '@nestjs/common';
import { AddressChangeLocksStore } from '@notify/cache';
import {
  type InboundAddress,
  inboundPrefixSchema,
  isEmailAddress,
  mailDomainSchema,
  MAX_INBOUND_ADDRESSES,
  type TenantScope,
} from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { ConflictError, InvalidRequestError, NotFoundError } from '@notify/util';
import { type AddressWrite, InboundAddressRepository, SendingDomainRepository } from '@notify/store';
import { z } from 'zod';

/** A display name goes into Reply-To headers: one line of printable text. */
const displayNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((name) => !/\p{Cc}/u.test(name), { message: 'expected no control characters' });

/** An address to add: a prefix, and a domain with a display name for a custom address on a verified domain. */
export const createAddressSchema = z.object({
  prefix: inboundPrefixSchema,
  domain: mailDomainSchema.optional(),
  displayName: displayNameSchema.optional(),
});
export type CreateAddressBody = z.infer<typeof createAddressSchema>;

export const fullAddressSchema = z
  .string()
  .max(320)
  .trim()
  .toLowerCase()
  .refine(isEmailAddress, { message: 'expected an email address' });

export const updateAddressSchema = z.object({
  fullAddress: fullAddressSchema,
  prefix: inboundPrefixSchema.optional(),
  displayName: displayNameSchema.optional(),
});
export type UpdateAddressBody = z.infer<typeof updateAddressSchema>;

const notFound = () =>
  new NotFoundError({
    code: 'ADDRESS_NOT_FOUND',
    message: 'This environment has no such inbound address.',
    fix: 'List the addresses with GET /addresses.',
  });

/**
 * An environment's inbound email addresses: one built-in address on the
 * service's own mail domain (INBOUND_MAIL_DOMAIN), which replies to its emails come back to, and
 * custom addresses on a verified domain: one of the operator's (EMAIL_VERIFIED_DOMAINS) or a
 * verified sending domain of the environment (POST /domains). Every address
 * belongs to one environment of the whole service.
 */
@Injectable()
export class InboundAddresses {
  constructor(
    private readonly addresses: InboundAddressRepository,
    private readonly locks: AddressChangeLocksStore,
    @InjectConfig() private readonly config: AppConfig,
    private readonly sendingDomains: SendingDomainRepository,
  ) {}

  list(scope: TenantScope): Promise<InboundAddress[]> {
    return this.addresses.list(scope);
  }

  async create(scope: TenantScope, body: CreateAddressBody): Promise<InboundAddress> {
    const { mailDomain } = this.config.inbound;
    const builtin = body.domain === undefined || body.domain === mailDomain;
    const domain = builtin ? mailDomain : await this.verified(scope, body.domain ?? '');
    if (builtin && mailDomain === undefined)
      throw new InvalidRequestError({
        code: 'INBOUND_EMAIL_NOT_CONFIGURED',
        message: 'This service receives no email: INBOUND_MAIL_DOMAIN is not set.',
        fix: 'Ask the operator to set INBOUND_MAIL_DOMAIN and INBOUND_SMTP_PORT, or give a verified domain.',
      });
    const address: InboundAddress = {
      fullAddress: `${body.prefix}@${domain}`,
      prefix: body.prefix,
      domain: domain ?? '',
      type: builtin ? 'builtin' : 'custom',
      ...(body.displayName !== undefined ? { displayName: body.displayName } : {}),
      createdAt: new Date().toISOString(),
    };
    const written = await this.oneAtATime(scope, async () => {
      const existing = builtin ? await this.addresses.builtin(scope) : undefined;
      if (existing !== undefined)
        throw new ConflictError({
          code: 'BUILTIN_ADDRESS_EXISTS',
          message: `This environment's built-in address is ${existing.fullAddress}.`,
          fix: 'Change its prefix with PATCH /addresses instead.',
        });
      return this.addresses.create(scope, address, MAX_INBOUND_ADDRESSES);
    });
    return this.written(written);
  }

  /**
   * New and changed addresses of an environment take turns (a lock in the coordination store), so
   * racing requests can never leave two built-in addresses that nobody could delete, nor pass the
   * limit; the one that finds the lock taken is told to try again (409).
   */
  private async oneAtATime<T>(scope: TenantScope, change: () => Promise<T>): Promise<T> {
    const holder = await this.locks.acquire(scope);
    if (holder === undefined)
      throw new ConflictError({
        code: 'ADDRESS_CHANGE_IN_PROGRESS',
        message: "Another request is changing this environment's addresses.",
        fix: 'Try again in a moment.',
      });
    try {
      return await change();
    } finally {
      await this.locks.release(scope, holder);
    }
  }

  async update(scope: TenantScope, body: UpdateAddressBody): Promise<InboundAddress> {
    const written = await this.oneAtATime(scope, () =>
      this.addresses.update(
        scope,
        body.fullAddress,
        {
          ...(body.prefix !== undefined ? { prefix: body.prefix } : {}),
          ...(body.displayName !== undefined ? { displayName: body.displayName } : {}),
        },
        new Date().toISOString(),
      ),
    );
    if (written === undefined) throw notFound();
    return this.written(written);
  }

  /** Removes a custom address; the built-in one stays (400). */
  async remove(scope: TenantScope, fullAddress: string): Promise<InboundAddress> {
    const address = await this.addresses.get(scope, fullAddress);
    if (address === undefined) throw notFound();
    if (address.type === 'builtin')
      throw new InvalidRequestError({
        code: 'BUILTIN_ADDRESS',
        message: 'The built-in address cannot be deleted.',
        fix: 'Change its prefix with PATCH /addresses, or delete a custom address.',
      });
    if (!(await this.addresses.remove(scope, fullAddress))) throw notFound();
    return address;
  }

  private async verified(scope: TenantScope, domain: string): Promise<string> {
    if (this.config.email.verifiedDomains.includes(domain)) return domain;
    if ((await this.sendingDomains.get(scope, domain))?.status === 'SUCCESS') return domain;
    throw new InvalidRequestError({
      code: 'DOMAIN_NOT_VERIFIED',
      message: `${domain} is not a verified domain of this service.`,
      fix:
        this.config.email.verifiedDomains.length === 0
          ? 'Verify it as a sending domain (POST /domains) or ask the operator to (EMAIL_VERIFIED_DOMAINS), and point its MX record at the inbound service.'
          : `Use one of: ${this.config.email.verifiedDomains.join(', ')}, or omit domain for the built-in address.`,
    });
  }

  private written(written: AddressWrite): InboundAddress {
    if (written === 'full')
      throw new InvalidRequestError({
        code: 'LIMIT_REACHED',
        message: `The limit of ${MAX_INBOUND_ADDRESSES} inbound addresses per environment is reached.`,
        fix: 'Delete a custom address first.',
      });
    if (written === 'taken')
      throw new ConflictError({
        code: 'ADDRESS_TAKEN',
        message: 'This address is taken.',
        fix: 'Choose another prefix.',
      });
    return written;
  }
}
