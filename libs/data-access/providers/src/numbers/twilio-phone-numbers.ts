import { Injectable } from '@nestjs/common';
import { type NumberFeature, type NumberSearch } from '@notify/domain';
import { InvalidRequestError, ProviderError } from '@notify/util';
import type { Twilio } from 'twilio';
import { TwilioAccounts } from '../twilio/twilio-accounts';
import { twilioRefusal } from '../twilio/twilio-refusal';
import { type AvailableNumber, type HeldNumber, PhoneNumberProvider } from './phone-number-provider';

/** Twilio's code for a number that is not on sale. */
const NOT_AVAILABLE = 21422;
/** The FriendlyName a purchase carries: whose number it is, so an interrupted order can be recognised. */
const TAG_PREFIX = 'notify:';

const failed = (error: unknown, what: string): ProviderError => {
  const refusal = twilioRefusal(error);
  return new ProviderError({
    code: 'TWILIO_ERROR',
    message: `Twilio refused to ${what}: ${refusal.message}`,
    fix: 'Retry later; if it persists, check the deployment’s Twilio account.',
    provider: 'twilio',
    ...(refusal.code !== undefined ? { providerCode: String(refusal.code) } : {}),
  });
};

/** Twilio's capabilities (`SMS`/`MMS` on AvailablePhoneNumbers, lower case elsewhere) as features. */
function featuresOf(capabilities: unknown): NumberFeature[] {
  const caps = (capabilities ?? {}) as Record<string, unknown>;
  const has = (name: string) => caps[name] === true || caps[name.toUpperCase()] === true;
  return (['sms', 'mms', 'voice'] as const).filter(has);
}

/**
 * Phone numbers through Twilio's AvailablePhoneNumbers and IncomingPhoneNumbers resources, on the
 * deployment's Twilio account (TWILIO_ACCOUNT_SID, or the local Twilio peer in the all-in-one
 * service). Each purchase's FriendlyName names the account it was bought for.
 */
@Injectable()
export class TwilioPhoneNumbers extends PhoneNumberProvider {
  constructor(private readonly accounts: TwilioAccounts) {
    super();
  }

  async search(query: NumberSearch): Promise<AvailableNumber[] | 'unsupported_country'> {
    const features = query.features ?? [];
    const client = this.client();
    try {
      const found = await client.availablePhoneNumbers(query.countryCode).local.list({
        ...(query.areaCode !== undefined ? { areaCode: Number(query.areaCode) } : {}),
        ...(query.contains !== undefined ? { contains: query.contains } : {}),
        ...(features.includes('sms') ? { smsEnabled: true } : {}),
        ...(features.includes('mms') ? { mmsEnabled: true } : {}),
        ...(features.includes('voice') ? { voiceEnabled: true } : {}),
        limit: query.limit,
      });
      return found.map((number) => ({
        phoneNumber: number.phoneNumber,
        countryCode: number.isoCountry,
        ...(number.locality ? { locality: number.locality } : {}),
        ...(number.region ? { region: number.region } : {}),
        features: featuresOf(number.capabilities),
      }));
    } catch (error) {
      if (twilioRefusal(error).status === 404) return 'unsupported_country';
      throw failed(error, 'search numbers');
    }
  }

  async buy(phoneNumber: string, owner: string): Promise<HeldNumber | 'unavailable'> {
    const client = this.client();
    try {
      const bought = await client.incomingPhoneNumbers.create({
        phoneNumber,
        friendlyName: `${TAG_PREFIX}${owner}`,
      });
      return { sid: bought.sid, phoneNumber: bought.phoneNumber, owner };
    } catch (error) {
      if (twilioRefusal(error).code === NOT_AVAILABLE) return 'unavailable';
      throw failed(error, `sell ${phoneNumber}`);
    }
  }

  async find(phoneNumber: string): Promise<HeldNumber | undefined> {
    const client = this.client();
    try {
      const [held] = await client.incomingPhoneNumbers.list({ phoneNumber, limit: 1 });
      if (held === undefined) return undefined;
      const tag = held.friendlyName;
      return {
        sid: held.sid,
        phoneNumber: held.phoneNumber,
        ...(tag.startsWith(TAG_PREFIX) ? { owner: tag.slice(TAG_PREFIX.length) } : {}),
      };
    } catch (error) {
      throw failed(error, `look up ${phoneNumber}`);
    }
  }

  async release(sid: string): Promise<void> {
    const client = this.client();
    try {
      await client.incomingPhoneNumbers(sid).remove();
    } catch (error) {
      if (twilioRefusal(error).status === 404) return;
      throw failed(error, 'release the number');
    }
  }

  /**
   * The deployment's client, taken before any call so that a deployment without an account answers
   * 400 PHONE_NUMBERS_NOT_CONFIGURED rather than a Twilio failure.
   */
  private client(): Twilio {
    const managed = this.accounts.managed();
    if (managed === undefined)
      throw new InvalidRequestError({
        code: 'PHONE_NUMBERS_NOT_CONFIGURED',
        message: 'This deployment sells no phone numbers: it has no Twilio account of its own.',
        fix: 'Ask the operator to set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.',
      });
    return managed.client;
  }
}
