import { Injectable } from '@nestjs/common';
import { InjectClock } from '@notify/platform';
import { PhoneNumberProvider } from '@notify/providers';
import { PhoneNumberRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { numberNotFound, refuseTestEnvironment } from './number-errors';
import type { NumbersCaller } from './order-number.usecase';

export interface Released {
  readonly phoneNumber: string;
  readonly released: true;
  readonly releasedAt: string;
}

/**
 * `DELETE /numbers/{phoneNumber}`: gives an active number of the caller's account back to the
 * provider, then marks it released (it stays on `GET /numbers/released`, and ordering it again
 * reactivates it while the provider still offers it). A retry after the second step failed finds
 * the provider's purchase gone and completes it. A test environment releases nothing (403).
 */
@Injectable()
export class ReleaseNumberUseCase {
  constructor(
    private readonly provider: PhoneNumberProvider,
    private readonly numbers: PhoneNumberRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(caller: NumbersCaller, phoneNumber: string): Promise<Released> {
    refuseTestEnvironment(caller);
    const { accountId } = caller;
    const record = await this.numbers.get(accountId, phoneNumber);
    if (record?.status !== 'active') throw numberNotFound(phoneNumber);
    await this.provider.release(record.providerSid);
    const released = await this.numbers.release(
      accountId,
      phoneNumber,
      new Date(this.clock.now()).toISOString(),
    );
    if (released?.releasedAt === undefined) throw numberNotFound(phoneNumber);
    return { phoneNumber, released: true, releasedAt: released.releasedAt };
  }
}
