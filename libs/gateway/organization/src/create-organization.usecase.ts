import { Injectable } from '@nestjs/common';
import { newOrganization } from '@notify/domain';
import type { Caller } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { randomUUID } from 'node:crypto';
import { AccountCreator } from './account.creator';
import type { CreateOrganizationBody } from './account.schemas';
import { personOf } from './callers';

/** The pingram client's CreateOrganizationResponse, with the new account's environment and first key (shown once). */
export interface CreatedOrganization {
  readonly success: true;
  readonly accountId: string;
  readonly organizationId: string;
  readonly envId: string;
  readonly apiKey: string;
}

/**
 * A new organization with a new account in it, owned by the person calling, with its first
 * environment and key. Named `name`, else after the person's email.
 */
@Injectable()
export class CreateOrganizationUseCase {
  constructor(
    private readonly creator: AccountCreator,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: {
    readonly caller: Caller;
    readonly body: CreateOrganizationBody;
  }): Promise<CreatedOrganization> {
    const person = personOf(command.caller);
    const name = command.body.name ?? person.email;
    const organization = newOrganization({
      organizationId: `org_${randomUUID()}`,
      name,
      creator: person.userId,
      now: new Date(this.clock.now()).toISOString(),
    });
    const created = await this.creator.create({
      name,
      owner: person.userId,
      organization: { create: organization },
    });
    return {
      success: true,
      accountId: created.account.accountId,
      organizationId: organization.organizationId,
      envId: created.envId,
      apiKey: created.apiKey,
    };
  }
}
