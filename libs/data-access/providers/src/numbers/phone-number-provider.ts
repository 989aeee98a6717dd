import type { NumberFeature, NumberSearch } from '@notify/domain';

/** A number on sale, as a search shows it. */
export interface AvailableNumber {
  readonly phoneNumber: string;
  readonly countryCode: string;
  readonly locality?: string;
  readonly region?: string;
  readonly features: readonly NumberFeature[];
}

/** A number the managed provider account holds: the purchase's id, and whose it is (the tag given when bought). */
export interface HeldNumber {
  readonly sid: string;
  readonly phoneNumber: string;
  readonly owner?: string;
}

/**
 * Where the service buys phone numbers for its accounts: the deployment's own (managed) provider
 * account. Injected by this class; TwilioPhoneNumbers is the adapter (Twilio's API, or the local
 * Twilio peer that speaks it).
 */
export abstract class PhoneNumberProvider {
  /** Local numbers on sale; 'unsupported_country' when the provider sells none in that country. */
  abstract search(query: NumberSearch): Promise<AvailableNumber[] | 'unsupported_country'>;
  /** Buys the number, tagged with its owner; 'unavailable' when it is not on sale (anyone holds it, or nobody sells it). */
  abstract buy(phoneNumber: string, owner: string): Promise<HeldNumber | 'unavailable'>;
  /** The managed account's purchase of the number, if it holds it. */
  abstract find(phoneNumber: string): Promise<HeldNumber | undefined>;
  /** Gives the number back; resolves as well when it was given back already. */
  abstract release(sid: string): Promise<void>;
}
