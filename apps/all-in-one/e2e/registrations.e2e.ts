import { aMemberToken } from '@notify/testing';
import { type AllInOne, bootstrapKey, callAs, startAllInOne } from './all-in-one';

const OPERATOR_TOKEN = 'operator-token-for-the-e2e-of-at-least-32-characters';
const BRAND = '/registrations/us/10dlc/brand';
const review = (accountId: string) => `/operator/registrations/us/10dlc/brand/${accountId}/review`;
const QUEUE = '/operator/registrations/us/10dlc/brand';

interface ErrorBody {
  trackingId: string;
  error: { code: string; message: string };
}
type Brand = Record<string, unknown>;

/** A valid body for a business type (the company fields, or a sole proprietor's name). */
const aBody = (businessType: string, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  scenarioId: 'own_brand',
  businessType,
  ...(businessType === 'SOLE_PROPRIETOR'
    ? { firstName: 'Ann', lastName: 'Lee' }
    : { legalName: `${businessType} Inc`, taxId: '12-3456789' }),
  website: 'brand.example/about',
  country: 'US',
  street: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  complianceContactEmail: 'legal@brand.example',
  complianceContactPhone: '(217) 555-0134',
  ...over,
});

/**
 * US 10DLC brand registration over plain HTTP (the pingram client has the models but no operation
 * for it), against the all-in-one service with an operator token. Before the first start the store
 * holds other tenants, so each test has accounts of its own and none depends on another's brand:
 * `acct-team` (Olive owner, Mia member), `acct-other` (Oscar owner), `acct-cross` (Carl owner) and
 * `acct-roles` (Rose owner, Max member).
 */
describe('10DLC brand registration (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  /** The API key of the default account's first environment. */
  let key: string;

  const olive = aMemberToken({ email: 'olive@team.example' });
  const mia = aMemberToken({ email: 'mia@team.example' });
  const oscar = aMemberToken({ email: 'oscar@other.example' });
  const carl = aMemberToken({ email: 'carl@cross.example' });
  const rose = aMemberToken({ email: 'rose@roles.example' });
  const max = aMemberToken({ email: 'max@roles.example' });
  const owner = aMemberToken({ email: 'owner@notify.localhost' });

  const call = (path: string, as: string | null, init: RequestInit = {}) => callAs(base, path, as, init);
  const post = (path: string, as: string | null, body: unknown) =>
    call(path, as, { method: 'POST', body: JSON.stringify(body) });
  const ok = async <T>(response: Response): Promise<T> => {
    if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  const refusal = async (response: Response) => {
    const body = (await response.json()) as ErrorBody;
    expect(body.trackingId).toEqual(expect.any(String));
    return { status: response.status, code: body.error.code, message: body.error.message };
  };
  const history = async (as: string, query = '') =>
    (
      await ok<{ events: { type: string; actor: string; details: Record<string, string> }[] }>(
        await call(`/account/history${query}`, as),
      )
    ).events;

  beforeAll(async () => {
    app = await startAllInOne('notify-registrations-', {
      tenants: [
        {
          accountId: 'acct-team',
          members: [
            { email: 'olive@team.example', role: 'owner' },
            { email: 'mia@team.example', role: 'member' },
          ],
        },
        { accountId: 'acct-other', members: [{ email: 'oscar@other.example', role: 'owner' }] },
        { accountId: 'acct-cross', members: [{ email: 'carl@cross.example', role: 'owner' }] },
        {
          accountId: 'acct-roles',
          members: [
            { email: 'rose@roles.example', role: 'owner' },
            { email: 'max@roles.example', role: 'member' },
          ],
        },
      ],
      env: { OPERATOR_TOKEN },
    });
    base = app.baseUrl;
    key = await bootstrapKey(app);
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('registers a brand for each business type, normalised, in an account of its own', async () => {
    for (const businessType of [
      'PRIVATE_PROFIT',
      'PUBLIC_PROFIT',
      'NON_PROFIT',
      'GOVERNMENT',
      'SOLE_PROPRIETOR',
    ]) {
      const account = await ok<{ accountId: string; apiKey: string }>(
        await post('/accounts', owner, { name: `Brand ${businessType}` }),
      );
      const brand = await ok<Brand>(await post(BRAND, account.apiKey, aBody(businessType)));
      const sole = businessType === 'SOLE_PROPRIETOR';
      expect(brand).toEqual({
        accountId: account.accountId,
        scenarioId: 'own_brand',
        businessType,
        legalName: sole ? 'Ann Lee' : `${businessType} Inc`,
        displayName: sole ? 'Ann Lee' : `${businessType} Inc`,
        ...(sole ? { firstName: 'Ann', lastName: 'Lee' } : { taxId: '123456789' }),
        website: 'https://brand.example/about',
        country: 'US',
        street: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        postalCode: '62701',
        complianceContactEmail: 'legal@brand.example',
        complianceContactPhone: '+12175550134',
        brandStatus: 'pending_review',
        campaignStatus: 'not_started',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(await ok<Brand>(await call(BRAND, account.apiKey))).toEqual(brand);
      if (sole) expect(brand).not.toHaveProperty('taxId');
    }
  });

  it('normalises a Canadian brand: BN digits, province, postal code, phone by country', async () => {
    const account = await ok<{ apiKey: string }>(await post('/accounts', owner, { name: 'Canada' }));
    const brand = await ok<Brand>(
      await post(
        BRAND,
        account.apiKey,
        aBody('PRIVATE_PROFIT', {
          country: 'ca',
          taxId: '123 456 789',
          state: 'on',
          postalCode: 'k1a0b1',
          website: 'https://maple.example',
          complianceContactPhone: '416 555 0123',
        }),
      ),
    );
    expect(brand).toMatchObject({
      country: 'CA',
      taxId: '123456789',
      state: 'ON',
      postalCode: 'K1A 0B1',
      website: 'https://maple.example/',
      complianceContactPhone: '+14165550123',
    });
  });

  it('answers each rule with a 400 naming the field, and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [aBody('SOLE_PROPRIETOR', { firstName: undefined }), 'firstName'],
      [aBody('SOLE_PROPRIETOR', { lastName: undefined }), 'lastName'],
      [aBody('SOLE_PROPRIETOR', { taxId: '123456789' }), 'taxId'],
      [aBody('PRIVATE_PROFIT', { taxId: undefined }), 'taxId'],
      [aBody('NON_PROFIT', { legalName: undefined }), 'legalName'],
      [aBody('GOVERNMENT', { firstName: 'Ann' }), 'firstName'],
      [aBody('PRIVATE_PROFIT', { taxId: '12-34567' }), 'taxId'],
      [
        aBody('PRIVATE_PROFIT', { country: 'CA', state: 'ON', postalCode: 'K1A 0B1', taxId: '1234' }),
        'taxId',
      ],
      [aBody('PRIVATE_PROFIT', { website: 'http://brand.example' }), 'website'],
      [aBody('PRIVATE_PROFIT', { website: 'not a site' }), 'website'],
      [aBody('PRIVATE_PROFIT', { complianceContactPhone: '555' }), 'complianceContactPhone'],
      [aBody('PRIVATE_PROFIT', { complianceContactEmail: 'legal-at-brand' }), 'complianceContactEmail'],
      [aBody('PRIVATE_PROFIT', { country: 'ZZ' }), 'country'],
      [aBody('PRIVATE_PROFIT', { state: 'XX' }), 'state'],
      [aBody('PRIVATE_PROFIT', { postalCode: '6270' }), 'postalCode'],
      [aBody('PRIVATE_PROFIT', { country: 'CA', state: 'ON', taxId: '123456789' }), 'postalCode'],
      [aBody('PRIVATE_PROFIT', { scenarioId: 'their_brand' }), 'scenarioId'],
      [aBody('PRIVATE_PROFIT', { businessType: 'LLC' }), 'businessType'],
      [aBody('PRIVATE_PROFIT', { legalName: 'x'.repeat(201) }), 'legalName'],
      [
        aBody('PRIVATE_PROFIT', {
          street: undefined,
          city: undefined,
          fullAddress: '1 Main St, Springfield',
        }),
        'street',
      ],
    ];
    for (const [body, field] of cases) {
      const refused = await refusal(await post(BRAND, key, body));
      expect({ field, status: refused.status, code: refused.code }).toEqual({
        field,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(refused.message).toContain(`${field}:`);
    }
    expect(await refusal(await call(BRAND, key))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('lets the operator move the brand through review, info_needed back to pending_review on a corrected POST, each move in the history', async () => {
    await ok(await post(BRAND, olive, aBody('PRIVATE_PROFIT')));
    const queue = async (query = '') =>
      (await ok<{ brands: Brand[] }>(await call(`${QUEUE}${query}`, OPERATOR_TOKEN))).brands;
    const awaiting = await queue();
    expect(awaiting.map((brand) => brand.accountId)).toContain('acct-team');
    expect(awaiting.every((brand) => brand.brandStatus === 'pending_review')).toBe(true);
    expect(await refusal(await call(`${QUEUE}?brandStatus=bogus`, OPERATOR_TOKEN))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
    });

    // The operator's token and nothing else opens the operator routes.
    for (const as of [null, key, olive])
      expect(await refusal(await call(QUEUE, as))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    for (const as of [null, 'wrong-token-wrong-token-wrong-token-x', key, olive])
      expect(
        await refusal(await post(review('acct-team'), as, { brandStatus: 'in_progress' })),
      ).toMatchObject({
        status: 401,
        code: 'UNAUTHORIZED',
      });
    expect(
      await refusal(await post(review('acct-none'), OPERATOR_TOKEN, { brandStatus: 'in_progress' })),
    ).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(
      await refusal(await post(review('acct-team'), OPERATOR_TOKEN, { brandStatus: 'approved' })),
    ).toMatchObject({
      status: 409,
      code: 'INVALID_TRANSITION',
    });
    expect(
      await refusal(await post(review('acct-team'), OPERATOR_TOKEN, { reason: 'no status' })),
    ).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
    });

    expect(
      await ok<Brand>(await post(review('acct-team'), OPERATOR_TOKEN, { brandStatus: 'in_progress' })),
    ).toMatchObject({ brandStatus: 'in_progress', campaignStatus: 'not_started' });
    expect((await queue()).map((brand) => brand.accountId)).not.toContain('acct-team');
    expect((await queue('?brandStatus=in_progress')).map((brand) => brand.accountId)).toEqual(['acct-team']);
    expect(await refusal(await post(BRAND, olive, aBody('PRIVATE_PROFIT')))).toMatchObject({
      status: 409,
      code: 'REGISTRATION_LOCKED',
    });
    await ok(
      await post(review('acct-team'), OPERATOR_TOKEN, {
        brandStatus: 'info_needed',
        reason: 'EIN does not match',
      }),
    );
    expect(await ok<Brand>(await call(BRAND, mia))).toMatchObject({ brandStatus: 'info_needed' });

    const corrected = await ok<Brand>(
      await post(
        BRAND,
        olive,
        aBody('PRIVATE_PROFIT', { legalName: 'Team Holdings LLC', taxId: '98-7654321' }),
      ),
    );
    expect(corrected).toMatchObject({
      brandStatus: 'pending_review',
      legalName: 'Team Holdings LLC',
      taxId: '987654321',
    });

    await ok(await post(review('acct-team'), OPERATOR_TOKEN, { brandStatus: 'in_progress' }));
    expect(
      await ok<Brand>(
        await post(review('acct-team'), OPERATOR_TOKEN, {
          brandStatus: 'approved',
          campaignStatus: 'pending_review',
        }),
      ),
    ).toMatchObject({ brandStatus: 'approved', campaignStatus: 'pending_review' });
    expect(await refusal(await post(BRAND, olive, aBody('PRIVATE_PROFIT')))).toMatchObject({ status: 409 });

    const expected = [
      ['10dlc.campaign.pending_review', 'operator', 'not_started'],
      ['10dlc.brand.approved', 'operator', 'in_progress'],
      ['10dlc.brand.in_progress', 'operator', 'pending_review'],
      ['10dlc.brand.pending_review', 'member', 'info_needed'],
      ['10dlc.brand.info_needed', 'operator', 'in_progress'],
      ['10dlc.brand.in_progress', 'operator', 'pending_review'],
      ['10dlc.brand.pending_review', 'member', 'not_started'],
    ];
    const events = await history(olive);
    expect(events.map((e) => [e.type, e.actor.split(':')[0], e.details.from])).toEqual(expected);
    expect(events[3]?.actor).toBe(events[6]?.actor);
    expect(events[4]?.details.reason).toBe('EIN does not match');
    // Every member reads the history; `limit` bounds it.
    expect((await history(mia, '?limit=2')).map((e) => e.type)).toEqual(
      expected.slice(0, 2).map((e) => e[0]),
    );
    expect(await refusal(await call('/account/history?limit=501', mia))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
  });

  it("keeps each account's brand and history to itself", async () => {
    await ok(await post(BRAND, carl, aBody('PRIVATE_PROFIT')));
    expect(await refusal(await call(BRAND, oscar))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await refusal(await call(`${BRAND}?accountId=acct-cross`, oscar))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await refusal(await call(`${BRAND}?accountId=acct-cross`, key))).toMatchObject({ status: 404 });
    expect(await refusal(await call('/account/history?accountId=acct-cross', oscar))).toMatchObject({
      status: 404,
    });
    expect(await history(oscar)).toEqual([]);
    // A brand of Oscar's own changes nothing of Carl's.
    await ok(await post(BRAND, oscar, aBody('NON_PROFIT')));
    expect(await ok<Brand>(await call(BRAND, carl))).toMatchObject({
      accountId: 'acct-cross',
      businessType: 'PRIVATE_PROFIT',
    });
  });

  it('lets a plain member read the brand but not submit it (403)', async () => {
    await ok(await post(BRAND, rose, aBody('PRIVATE_PROFIT')));
    expect(await refusal(await post(BRAND, max, aBody('NON_PROFIT')))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await ok<Brand>(await call(BRAND, max))).toMatchObject({
      accountId: 'acct-roles',
      businessType: 'PRIVATE_PROFIT',
    });
  });

  it("refuses a test environment's key (403): the brand is the account's, registered with carriers", async () => {
    const account = await ok<{ apiKey: string }>(await post('/accounts', owner, { name: 'Sandboxed' }));
    const sandbox = await ok<{ apiKey: string }>(
      await post('/environments', account.apiKey, { title: 'Sandbox', test: true }),
    );
    const refused = await refusal(await post(BRAND, sandbox.apiKey, aBody('PRIVATE_PROFIT')));
    expect(refused).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(refused.message).toContain('test environment');
    expect(await refusal(await call(BRAND, account.apiKey))).toMatchObject({ status: 404 });
    expect(await history(account.apiKey)).toEqual([]);
  });
});
