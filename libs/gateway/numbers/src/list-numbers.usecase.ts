import { Injectable } from '@nestjs/common';
import { monthlyPriceOf, nextBillingDate, type PhoneNumberRecord, type TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { SANDBOX_FROM_NUMBER, TwilioAccounts } from '@notify/providers';
import { PhoneNumberRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/** A number as the pingram client reads it (ListPhoneNumbersResponseNumbersInner). */
export interface NumberView {
  readonly phoneNumber: string;
  readonly createdAt: string;
  readonly countryCode: string;
  readonly numberType: 'local';
  readonly billingStatus: PhoneNumberRecord['status'];
  readonly nextBillingDate: string;
  readonly monthlyPrice: number;
  readonly releasedAt?: string;
}

/**
 * `GET /numbers/list` and `GET /numbers/released`: the account's numbers in one status, oldest
 * first. The active list also names `sharedNumber`, the number the caller's environment sends from
 * when a send names none: a test environment's sends go to the sandbox, from its number; any other's
 * from its own Twilio account's, else the deployment's (empty when neither has one).
 */
@Injectable()
export class ListNumbersUseCase {
  constructor(
    private readonly numbers: PhoneNumberRepository,
    private readonly accounts: TwilioAccounts,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async active(
    scope: TenantScope & { readonly test: boolean },
  ): Promise<{ numbers: NumberView[]; sharedNumber: string }> {
    const [numbers, sharedNumber] = await Promise.all([
      this.views(scope.accountId, 'active'),
      this.sharedNumber(scope),
    ]);
    return { numbers, sharedNumber };
  }

  async released(scope: TenantScope): Promise<{ numbers: NumberView[] }> {
    return { numbers: await this.views(scope.accountId, 'released') };
  }

  private async sharedNumber(scope: TenantScope & { readonly test: boolean }): Promise<string> {
    if (scope.test) return SANDBOX_FROM_NUMBER;
    return (await this.accounts.accountOf(scope))?.fromNumber ?? '';
  }

  private async views(accountId: string, status: PhoneNumberRecord['status']): Promise<NumberView[]> {
    const now = this.clock.now();
    return (await this.numbers.list(accountId, status)).map((record) => ({
      phoneNumber: record.phoneNumber,
      createdAt: record.createdAt,
      countryCode: record.countryCode,
      numberType: record.numberType,
      billingStatus: record.status,
      nextBillingDate: nextBillingDate(record.createdAt, now),
      monthlyPrice: monthlyPriceOf(record.countryCode),
      ...(record.releasedAt !== undefined ? { releasedAt: record.releasedAt } : {}),
    }));
  }
}
