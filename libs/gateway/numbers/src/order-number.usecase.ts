import { Injectable } from '@nestjs/common';
import { InvalidPhoneNumberError, parsePhoneNumber, type PhoneNumberRecord } from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { type HeldNumber, PhoneNumberProvider } from '@notify/providers';
import { PhoneNumberRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { numberUnavailable } from './number-errors';

export interface Order {
  readonly orderId: string;
  readonly status: 'active';
  readonly phoneNumber: string;
}

const orderOf = (record: PhoneNumberRecord): Order => ({
  orderId: record.providerSid,
  status: 'active',
  phoneNumber: record.phoneNumber,
});

/**
 * `POST /numbers/order`: buys a number for the caller's account on the deployment's provider
 * account, or reactivates one it released (keeping its first `createdAt`). The provider is asked
 * first and the record written after, so a refused purchase writes nothing; a record that cannot
 * be written gives the number back. Every purchase is tagged with the account, so an order
 * interrupted between the two steps is completed by the next attempt instead of being refused.
 * Ordering a number the account already holds answers that order again.
 */
@Injectable()
export class OrderNumberUseCase {
  constructor(
    private readonly provider: PhoneNumberProvider,
    private readonly numbers: PhoneNumberRepository,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(accountId: string, phoneNumber: string): Promise<Order> {
    const number = parsePhoneNumber(phoneNumber);
    if (number?.e164 !== phoneNumber || number.country === undefined)
      throw new InvalidPhoneNumberError('phoneNumber', phoneNumber);
    const existing = await this.numbers.get(accountId, phoneNumber);
    if (existing?.status === 'active') return orderOf(existing);
    const held = await this.purchase(accountId, phoneNumber);
    let record: PhoneNumberRecord | 'taken';
    try {
      record = await this.numbers.activate(
        { accountId, phoneNumber, countryCode: number.country, providerSid: held.sid },
        new Date(this.clock.now()).toISOString(),
      );
    } catch (error) {
      await this.giveBack(held);
      throw error;
    }
    if (record === 'taken') {
      await this.giveBack(held);
      throw numberUnavailable(phoneNumber);
    }
    return orderOf(record);
  }

  private async purchase(accountId: string, phoneNumber: string): Promise<HeldNumber> {
    const bought = await this.provider.buy(phoneNumber, accountId);
    if (bought !== 'unavailable') return bought;
    const held = await this.provider.find(phoneNumber);
    if (held?.owner === accountId) return held;
    throw numberUnavailable(phoneNumber);
  }

  /** Undoes a purchase that was not recorded; when that fails too, the tag lets a retry take it up. */
  private async giveBack(held: HeldNumber): Promise<void> {
    try {
      await this.provider.release(held.sid);
    } catch (error) {
      this.logger.error(
        { err: error, phoneNumber: held.phoneNumber, sid: held.sid },
        'a number bought for an order that was not recorded is still held; ordering it again takes it up',
      );
    }
  }
}
