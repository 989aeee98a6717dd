import { Inject, Injectable } from '@nestjs/common';
import type { InboundAddress, TenantScope } from '@notify/domain';
import { Collections, type InboundAddressDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';
import { scopeOf } from './scope';

/** Former built-in addresses an environment keeps taking mail at; older ones are let go. */
export const MAX_ADDRESS_ALIASES = 5;

const live = (doc: InboundAddressDoc) => doc.aliasOf === undefined;
const ownedBy = (doc: InboundAddressDoc | undefined, scope: TenantScope): doc is InboundAddressDoc =>
  doc !== undefined && doc.accountId === scope.accountId && doc.envId === scope.envId;

function addressOf(doc: InboundAddressDoc): InboundAddress {
  return {
    fullAddress: doc.fullAddress,
    prefix: doc.prefix,
    domain: doc.domain,
    type: doc.type,
    ...(doc.displayName !== undefined ? { displayName: doc.displayName } : {}),
    createdAt: doc.createdAt,
  };
}

export type AddressWrite = InboundAddress | 'taken' | 'full';

/**
 * Inbound email addresses. An address is unique across the service (its key), so
 * two environments can never take mail at the same one; each environment lists its own. Renaming
 * a built-in address keeps the former one as an alias, so replies to messages sent before still
 * arrive.
 */
@Injectable()
export class InboundAddressRepository {
  private readonly addresses: DocumentCollection<InboundAddressDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.addresses = store.collection(Collections.inboundAddresses);
  }

  /** The environment's addresses, oldest first. */
  async list(scope: TenantScope): Promise<InboundAddress[]> {
    return (await this.docs(scope))
      .filter(live)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map(addressOf);
  }

  async get(scope: TenantScope, fullAddress: string): Promise<InboundAddress | undefined> {
    const doc = await this.addresses.get([fullAddress]);
    return ownedBy(doc, scope) && live(doc) ? addressOf(doc) : undefined;
  }

  /** The environment's built-in address (the oldest, should two have been made at once). */
  async builtin(scope: TenantScope): Promise<InboundAddress | undefined> {
    return (await this.list(scope)).find((address) => address.type === 'builtin');
  }

  /** Whose mail `fullAddress` is: the environment, and the address (an alias answers for its successor's type). */
  async resolve(fullAddress: string): Promise<{ scope: TenantScope; address: InboundAddress } | undefined> {
    const doc = await this.addresses.get([fullAddress]);
    return doc === undefined ? undefined : { scope: scopeOf(doc), address: addressOf(doc) };
  }

  /** Adds an address unless it is taken (by anyone) or the environment has `max` already. */
  async create(scope: TenantScope, address: InboundAddress, max: number): Promise<AddressWrite> {
    if ((await this.list(scope)).length >= max) return 'full';
    return this.claim(scope, address);
  }

  /**
   * Changes an address's prefix (a new full address) or display name; undefined when the
   * environment has no such address.
   */
  async update(
    scope: TenantScope,
    fullAddress: string,
    change: { prefix?: string; displayName?: string },
    now: string,
  ): Promise<AddressWrite | undefined> {
    const current = await this.get(scope, fullAddress);
    if (current === undefined) return undefined;
    const prefix = change.prefix ?? current.prefix;
    const next: InboundAddress = {
      ...current,
      prefix,
      fullAddress: `${prefix}@${current.domain}`,
      ...(change.displayName !== undefined ? { displayName: change.displayName } : {}),
    };
    if (next.fullAddress === current.fullAddress) {
      const doc = await this.addresses.modify([fullAddress], (stored) =>
        ownedBy(stored, scope) ? { ...stored, ...next } : undefined,
      );
      return doc === undefined ? undefined : addressOf(doc);
    }
    if (current.type === 'custom') {
      const claimed = await this.claim(scope, next);
      if (typeof claimed !== 'string') await this.addresses.remove([fullAddress]);
      return claimed;
    }
    // The built-in address steps aside first (only while it is still the live one): interrupted
    // here, the environment has no built-in address (it can make one again), never two it could
    // not delete. Put back if its new name cannot be had.
    const asideDoc = await this.addresses.modify([fullAddress], (stored) =>
      ownedBy(stored, scope) && live(stored)
        ? { ...stored, aliasOf: next.fullAddress, createdAt: now }
        : undefined,
    );
    if (asideDoc?.aliasOf !== next.fullAddress || asideDoc.createdAt !== now) return undefined;
    const restore = () =>
      this.addresses.modify([fullAddress], (stored) => {
        if (!ownedBy(stored, scope) || stored.aliasOf !== next.fullAddress) return undefined;
        const { aliasOf: _aside, ...rest } = stored;
        return { ...rest, createdAt: current.createdAt };
      });
    let claimed: AddressWrite;
    try {
      claimed = await this.claim(scope, next);
    } catch (error) {
      await restore();
      throw error;
    }
    if (typeof claimed === 'string') {
      await restore();
      return claimed;
    }
    const aliases = (await this.docs(scope))
      .filter((doc) => !live(doc))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    for (const stale of aliases.slice(MAX_ADDRESS_ALIASES)) await this.addresses.remove([stale.fullAddress]);
    return claimed;
  }

  /** Removes a custom address; false when the environment has none by that name. */
  async remove(scope: TenantScope, fullAddress: string): Promise<boolean> {
    const doc = await this.addresses.get([fullAddress]);
    if (!ownedBy(doc, scope) || !live(doc)) return false;
    return this.addresses.remove([fullAddress]);
  }

  /** Takes the address for the environment: free, or one of its own aliases coming back into use. */
  private async claim(scope: TenantScope, address: InboundAddress): Promise<AddressWrite> {
    if (await this.addresses.insert({ ...scopeOf(scope), ...address })) return address;
    const doc = await this.addresses.modify([address.fullAddress], (stored) =>
      ownedBy(stored, scope) && !live(stored) ? { ...scopeOf(scope), ...address } : undefined,
    );
    return ownedBy(doc, scope) && live(doc) && doc.createdAt === address.createdAt ? address : 'taken';
  }

  private docs(scope: TenantScope): Promise<InboundAddressDoc[]> {
    return this.addresses.find({ accountId: scope.accountId, envId: scope.envId });
  }
}
