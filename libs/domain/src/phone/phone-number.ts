import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';

/** A phone number the service can text or call: E.164, with the country it belongs to. */
export interface PhoneNumber {
  /** E.164, e.g. +14155552671. */
  readonly e164: string;
  /** ISO 3166-1 alpha-2 (US, CA, GB, …); undefined for non-geographic numbers. */
  readonly country?: string;
}

/** A country whose numbering plan libphonenumber knows (ISO 3166-1 alpha-2, upper case). */
export type PhoneCountry = CountryCode;

const PHONE_COUNTRIES = new Set<string>(getCountries());

export const isPhoneCountry = (country: string): country is PhoneCountry => PHONE_COUNTRIES.has(country);

/**
 * Reads a phone number as the API accepts it: E.164 (`+<country><digits>`, spaces and punctuation
 * tolerated) for any country, or a national number of `defaultCountry`, by default an unformatted
 * US/Canada number (`(415) 555-2671`, `4155552671`, `1-415-555-2671`). Checked against
 * libphonenumber's numbering plans, not a regex, so a number with the wrong length or an unassigned
 * prefix is refused. Undefined when it is not a number.
 */
export function parsePhoneNumber(
  input: string,
  defaultCountry: PhoneCountry = 'US',
): PhoneNumber | undefined {
  const text = input.trim();
  if (text.length === 0 || text.length > 32) return undefined;
  const international = text.startsWith('+');
  const parsed = parsePhoneNumberFromString(text, international ? undefined : defaultCountry);
  if (parsed === undefined || !parsed.isValid()) return undefined;
  // Without a "+", only the default country's plan is assumed: "+44…" written as "44…" (or dialled
  // through an international prefix) is refused.
  if (!international && parsed.countryCallingCode !== getCountryCallingCode(defaultCountry)) return undefined;
  return { e164: parsed.number, ...(parsed.country !== undefined ? { country: parsed.country } : {}) };
}

/** The E.164 form of a number, or undefined when it is not one. */
export const normalizePhoneNumber = (input: string): string | undefined => parsePhoneNumber(input)?.e164;
