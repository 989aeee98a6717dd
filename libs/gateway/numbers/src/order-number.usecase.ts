import { Injectable } from '@nestjs/common';
import { InvalidPhoneNumberError, parsePhoneNumber, type PhoneNumberRecord } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { type HeldNumber, PhoneNumberProvider } from '@notify/providers';
import { PhoneNumberRepository, type PurchasedNumber } from '@notify/store';
import type { Clock } from '@notify/util';
import {
  numberLimitReached,
  numberReleasedMeanwhile,
  numberUnavailable,
  refuseTestEnvironment,
} from './number-errors';

export interface Order {
  readonly orderId: string;
  readonly status: 'active';
  readonly phoneNumber: string;
}

/** Who orders: the caller's account, and whether its environment is a test one. */
export interface NumbersCaller {
  readonly accountId: string;
  readonly test: boolean;
}

/**
 * `POST /numbers/order`: buys a number for the caller's account on the deployment's provider
 * account, or reactivates one it released (keeping its first `createdAt`). The provider is asked
 * first and the record written after, so a refused purchase writes nothing; a record that was not
 * written gives the number back. Every purchase is tagged with the account, so an order
 * interrupted between the two steps is completed by the next attempt instead of being refused.
 * Ordering a number the account already holds answers that order again. The answer is the record
 * as stored once the order is done, so a release that completed meanwhile is reported (409), never
 * hidden behind `active`. A test environment orders nothing (403); an account holding
 * MAX_PHONE_NUMBERS_PER_ACCOUNT active numbers buys no more (409); concurrent orders are each
 * checked against the count before their purchase.
 */
@Injectable()
export class OrderNumberUseCase {
  constructor(
    private readonly provider: PhoneNumberProvider,
    private readonly numbers: PhoneNumberRepository,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(caller: NumbersCaller, phoneNumber: string): Promise<Order> {
    refuseTestEnvironment(caller);
    const { accountId } = caller;
    const number = parsePhoneNumber(phoneNumber);
    if (number?.e164 !== phoneNumber || number.country === undefined)
      throw new InvalidPhoneNumberError('phoneNumber', phoneNumber);
    const existing = await this.numbers.get(accountId, phoneNumber);
    const sid =
      existing?.status === 'active'
        ? existing.providerSid
        : await this.buy({ accountId, phoneNumber, countryCode: number.country });
    const stored = await this.numbers.get(accountId, phoneNumber);
    if (stored?.status !== 'active' || stored.providerSid !== sid) throw numberReleasedMeanwhile(phoneNumber);
    return { orderId: stored.providerSid, status: 'active', phoneNumber };
  }

  /** Buys and records the number; the purchase's sid. */
  private async buy(order: Omit<PurchasedNumber, 'providerSid'>): Promise<string> {
    const max = this.config.limits.phoneNumbersPerAccount;
    if ((await this.numbers.list(order.accountId, 'active')).length >= max) throw numberLimitReached(max);
    const held = await this.purchase(order.accountId, order.phoneNumber);
    let record: PhoneNumberRecord | 'taken';
    try {
      record = await this.numbers.activate(
        { ...order, providerSid: held.sid },
        new Date(this.clock.now()).toISOString(),
      );
    } catch (error) {
      // A write that failed may still have committed (a timeout, a lost connection): the number is
      // given back only when the record does not hold this purchase.
      if (!(await this.recorded(order.accountId, held))) await this.giveBack(held);
      throw error;
    }
    if (record === 'taken') {
      await this.giveBack(held);
      throw numberUnavailable(order.phoneNumber);
    }
    return record.providerSid;
  }

  private async purchase(accountId: string, phoneNumber: string): Promise<HeldNumber> {
    const bought = await this.provider.buy(phoneNumber, accountId);
    if (bought !== 'unavailable') return bought;
    const held = await this.provider.find(phoneNumber);
    if (held?.owner === accountId) return held;
    throw numberUnavailable(phoneNumber);
  }

  /**
   * Whether the account's record holds the purchase. When the store cannot tell either, the number
   * is kept (true): a record saying active for a number given back is worse than a held number that
   * ordering again takes up.
   */
  private async recorded(accountId: string, held: HeldNumber): Promise<boolean> {
    try {
      return (await this.numbers.get(accountId, held.phoneNumber))?.providerSid === held.sid;
    } catch (error) {
      this.logger.error(
        { err: error, phoneNumber: held.phoneNumber, sid: held.sid },
        'an order’s record may not have been written; the number is kept and ordering it again takes it up',
      );
      return true;
    }
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
