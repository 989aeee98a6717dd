import { Inject, Injectable } from '@nestjs/common';
import {
  LAST_SMS_TTL_MS,
  type LastSms,
  lastSmsKey,
  lastSmsSchema,
  smsLastEnvironmentKey,
  smsOptOutKey,
  type TenantScope,
} from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../../cache.port';

/** An opt-out lasts until the number replies START (the store needs an expiry: ten years). */
const OPT_OUT_TTL_MS = 10 * 365 * 86_400_000;

/**
 * What the SMS sender and the inbound service share about a user's number, per environment: the
 * last SMS sent to it (what a reply refers to, and its auto-reply, answered once), which
 * environment texted it last from a service number (how a reply to a shared number finds its
 * environment), and whether it replied STOP.
 */
@Injectable()
export class SmsConversationsStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** Notes the SMS just sent to `userNumber`, from the service number `last.from`. */
  async remember(scope: TenantScope, userNumber: string, last: LastSms): Promise<void> {
    await Promise.all([
      this.coordination.set(
        lastSmsKey(scope.accountId, scope.envId, userNumber),
        JSON.stringify(last),
        LAST_SMS_TTL_MS,
      ),
      // A reply to a number several environments share finds the one that texted last.
      this.coordination.set(
        smsLastEnvironmentKey(last.from, userNumber),
        `${scope.accountId}/${scope.envId}`,
        LAST_SMS_TTL_MS,
      ),
    ]);
  }

  /** The last SMS this environment sent the number, while a reply still refers to it. */
  async last(scope: TenantScope, userNumber: string): Promise<LastSms | undefined> {
    const stored = await this.coordination.get(lastSmsKey(scope.accountId, scope.envId, userNumber));
    if (stored === undefined) return undefined;
    const parsed = lastSmsSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : undefined;
  }

  /** The environment that last texted `userNumber` from `serviceNumber`. */
  async lastEnvironment(serviceNumber: string, userNumber: string): Promise<TenantScope | undefined> {
    const owner = await this.coordination.get(smsLastEnvironmentKey(serviceNumber, userNumber));
    const [accountId, envId] = owner?.split('/') ?? [];
    return accountId && envId ? { accountId, envId } : undefined;
  }

  /**
   * True the first time it is asked for this SMS (`trackingId`), while a reply still refers to it:
   * its auto-reply goes out once however many replies come.
   */
  firstReply(scope: TenantScope, trackingId: string, now: number): Promise<boolean> {
    return this.coordination.setIfAbsent(
      `sms-replied/${scope.accountId}/${scope.envId}/${trackingId}`,
      String(now),
      LAST_SMS_TTL_MS,
    );
  }

  /** The number replied STOP (`keyword`) at `at`: this environment sends it no SMS until START. */
  optOut(scope: TenantScope, userNumber: string, keyword: string, at: string): Promise<void> {
    return this.coordination.set(
      smsOptOutKey(scope.accountId, scope.envId, userNumber),
      JSON.stringify({ keyword, at }),
      OPT_OUT_TTL_MS,
    );
  }

  /** The number replied START: it gets this environment's SMS again. */
  optIn(scope: TenantScope, userNumber: string): Promise<void> {
    return this.coordination.delete(smsOptOutKey(scope.accountId, scope.envId, userNumber));
  }

  async isOptedOut(scope: TenantScope, userNumber: string): Promise<boolean> {
    return (
      (await this.coordination.get(smsOptOutKey(scope.accountId, scope.envId, userNumber))) !== undefined
    );
  }
}
