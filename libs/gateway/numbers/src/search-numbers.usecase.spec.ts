import { numberSearchSchema } from '@notify/domain';
import { numbersHarness, type NumbersHarness } from './testing/numbers.harness';
import { SearchNumbersUseCase } from './search-numbers.usecase';

describe('SearchNumbersUseCase', () => {
  let world: NumbersHarness;
  let search: SearchNumbersUseCase;
  const query = (input: Record<string, string>) => numberSearchSchema.parse(input);

  beforeEach(async () => {
    world = await numbersHarness();
    search = new SearchNumbersUseCase(world.provider);
  });

  afterEach(() => world.close());

  it('answers local numbers on sale with their features and monthly rent, by area code and pattern', async () => {
    const found = await search.execute(
      query({ countryCode: 'us', areaCode: '415', contains: '0142', limit: '5' }),
    );
    expect(found).toEqual({
      numbers: [
        {
          phoneNumber: '+14155550142',
          locality: 'San Francisco',
          administrativeArea: 'CA',
          phoneNumberType: 'local',
          features: ['sms', 'mms', 'voice'],
          monthlyPrice: 1.15,
        },
      ],
    });
    const canada = await search.execute(query({ countryCode: 'CA', features: 'sms,voice', limit: '2' }));
    expect(canada.numbers.map((n) => [n.phoneNumber, n.features])).toEqual([
      ['+14165550100', ['sms', 'voice']],
      ['+14165550101', ['sms', 'voice']],
    ]);
    expect((await search.execute(query({ countryCode: 'CA', features: 'mms' }))).numbers).toEqual([]);
  });

  it('leaves out numbers an account holds', async () => {
    await world.provider.buy('+14155550142', 'someone');
    const found = await search.execute(query({ countryCode: 'US', contains: '4155550142' }));
    expect(found.numbers).toEqual([]);
  });

  it('refuses a country where no numbers are sold with 400 COUNTRY_NOT_SUPPORTED', async () => {
    await expect(search.execute(query({ countryCode: 'ZZ' }))).rejects.toMatchObject({
      kind: 'invalid',
      code: 'COUNTRY_NOT_SUPPORTED',
    });
  });

  it('answers 502 naming Twilio when the provider is down', async () => {
    await world.peer.stop();
    await expect(search.execute(query({ countryCode: 'US' }))).rejects.toMatchObject({
      kind: 'provider',
      code: 'TWILIO_ERROR',
      provider: 'twilio',
    });
  });
});
