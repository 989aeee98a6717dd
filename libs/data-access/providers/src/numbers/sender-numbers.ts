import { Injectable } from '@nestjs/common';
import {
  type NormalizedSend,
  ownsNumber,
  type TenantScope,
  type TwilioAccount,
  twilioAccountSetting,
} from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { PhoneNumberRepository } from '@notify/store';
import { type Clock, InvalidRequestError, LruCache } from '@notify/util';
import { createHash } from 'node:crypto';
import { SANDBOX_FROM_NUMBER } from '../sandbox/sandbox-twilio-account';
import { TwilioAccounts } from '../twilio/twilio-accounts';

/** How long Twilio's answer on whether an environment's own account holds a number is kept. */
const OWN_NUMBER_TTL_MS = 5 * 60_000;
/** How long accepting a send waits for that answer: Twilio being slow must not hold the send up. */
export const OWN_NUMBER_ASK_MS = 2_000;
/** After Twilio could not be asked, how long such sends go ahead without asking (or logging) again. */
const UNANSWERED_TTL_MS = 60_000;

/**
 * Which numbers a send may name as its SMS sender (`sms.from`): the rule the gateway applies when
 * it accepts a send and the SMS sender applies again when it sends (a number may have been released
 * in between).
 * - An environment with its own Twilio account (its `twilio` setting): the setting's numbers, or any
 *   number that Twilio account holds (asked through its IncomingPhoneNumbers, answers kept a while).
 *   A test environment's sends go to the sandbox, never to that account, so it is not asked.
 * - Any other environment sends through the deployment's account: its configured numbers
 *   (TWILIO_FROM_NUMBER, TWILIO_NUMBERS), or a number the account ordered and has not released.
 * - A test environment may also name the sandbox's sender number.
 */
@Injectable()
export class SenderNumbers {
  private readonly ownAccountAnswers = new LruCache<string, { held: boolean; until: number }>({
    maxEntries: 10_000,
  });

  constructor(
    private readonly settings: ProviderSettings,
    private readonly accounts: TwilioAccounts,
    private readonly numbers: PhoneNumberRepository,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async mayUse(scope: TenantScope & { readonly test: boolean }, from: string): Promise<boolean> {
    if (scope.test && from === SANDBOX_FROM_NUMBER) return true;
    const own = await this.settings.get(scope, twilioAccountSetting);
    if (own !== undefined) return ownsNumber(own, from) || scope.test || this.ownAccountHolds(own, from);
    const managed = this.accounts.defaultAccount;
    if (managed !== undefined && ownsNumber(managed, from)) return true;
    return (await this.numbers.get(scope.accountId, from))?.status === 'active';
  }

  /**
   * Whether the tenant's own Twilio account holds the number. When Twilio cannot be asked, or does
   * not answer within OWN_NUMBER_ASK_MS, the send goes ahead: Twilio itself refuses a sender its
   * account does not hold. That is logged once and kept UNANSWERED_TTL_MS, so a Twilio outage
   * neither slows every send nor floods the log.
   */
  private async ownAccountHolds(account: TwilioAccount, from: string): Promise<boolean> {
    const key = createHash('sha256')
      .update(`${account.accountSid}\0${account.authToken}\0${from}`)
      .digest('base64url');
    const now = this.clock.now();
    const kept = this.ownAccountAnswers.get(key);
    if (kept !== undefined && kept.until > now) return kept.held;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), OWN_NUMBER_ASK_MS);
    });
    try {
      const held = await Promise.race([
        this.accounts.clientOf(account).incomingPhoneNumbers.list({ phoneNumber: from, limit: 1 }),
        late,
      ]);
      if (held !== 'late') {
        this.ownAccountAnswers.set(key, { held: held.length > 0, until: now + OWN_NUMBER_TTL_MS });
        return held.length > 0;
      }
      this.unanswered(key, now, from, `no answer within ${OWN_NUMBER_ASK_MS} ms`);
    } catch (error) {
      this.unanswered(key, now, from, error);
    } finally {
      clearTimeout(timer);
    }
    return true;
  }

  private unanswered(key: string, now: number, from: string, why: unknown): void {
    this.ownAccountAnswers.set(key, { held: true, until: now + UNANSWERED_TTL_MS });
    this.logger.warn(
      { err: why, from },
      'could not ask Twilio whether the environment’s account holds sms.from; such sends go ahead for a minute',
    );
  }
}

/** An `sms.from` the environment may not send from is refused when the send is accepted, not failed later. */
export class SmsFromNotOwnedError extends InvalidRequestError {
  constructor(from: string) {
    super({
      code: 'SMS_FROM_NOT_OWNED',
      message: `sms.from ${from} is not a number this account may send from.`,
      fix: 'Name an active number of the account in E.164 (GET /numbers/list; order one with POST /numbers/order), or leave sms.from out to send from the shared number.',
    });
  }
}

/**
 * Refuses (400 SMS_FROM_NOT_OWNED) a send, new or a scheduled one's replacement, whose `sms.from`
 * the environment may not send from (see SenderNumbers).
 */
export async function refuseUnownedSmsFrom(
  numbers: Pick<SenderNumbers, 'mayUse'>,
  scope: TenantScope & { readonly test: boolean },
  send: Pick<NormalizedSend, 'sms'>,
): Promise<void> {
  const from = send.sms?.from;
  if (from !== undefined && !(await numbers.mayUse(scope, from))) throw new SmsFromNotOwnedError(from);
}
