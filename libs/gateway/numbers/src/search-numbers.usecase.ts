import { Injectable } from '@nestjs/common';
import { monthlyPriceOf, type NumberFeature, type NumberSearch } from '@notify/domain';
import { PhoneNumberProvider } from '@notify/providers';
import { InvalidRequestError } from '@notify/util';

/** A number on sale as the pingram client reads it (SearchAvailablePhoneNumbersResponseNumbersInner). */
export interface AvailableNumberView {
  readonly phoneNumber: string;
  readonly locality?: string;
  readonly administrativeArea?: string;
  readonly phoneNumberType: 'local';
  readonly features: readonly NumberFeature[];
  readonly monthlyPrice: number;
}

/** `GET /numbers/available`: local numbers on sale, with their monthly rent. */
@Injectable()
export class SearchNumbersUseCase {
  constructor(private readonly provider: PhoneNumberProvider) {}

  async execute(query: NumberSearch): Promise<{ numbers: AvailableNumberView[] }> {
    const found = await this.provider.search(query);
    if (found === 'unsupported_country')
      throw new InvalidRequestError({
        code: 'COUNTRY_NOT_SUPPORTED',
        message: `No numbers are sold in ${query.countryCode}.`,
        fix: 'Search another country, e.g. US or CA.',
      });
    return {
      numbers: found.map((number) => ({
        phoneNumber: number.phoneNumber,
        ...(number.locality !== undefined ? { locality: number.locality } : {}),
        ...(number.region !== undefined ? { administrativeArea: number.region } : {}),
        phoneNumberType: 'local',
        features: number.features,
        monthlyPrice: monthlyPriceOf(number.countryCode),
      })),
    };
  }
}
