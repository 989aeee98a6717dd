import { type BrandRegistrationBody, brandRegistrationSchema } from './ten-dlc-brand';

const company = (over: Partial<Record<keyof BrandRegistrationBody, unknown>> = {}) => ({
  scenarioId: 'own_brand',
  businessType: 'PRIVATE_PROFIT',
  legalName: 'Acme Corp',
  taxId: '12-3456789',
  website: 'acme.example',
  country: 'US',
  street: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  complianceContactEmail: 'legal@acme.example',
  complianceContactPhone: '(217) 555-0134',
  ...over,
});
const sole = (over: Partial<Record<keyof BrandRegistrationBody, unknown>> = {}) =>
  company({
    businessType: 'SOLE_PROPRIETOR',
    legalName: undefined,
    taxId: undefined,
    firstName: 'Ann',
    lastName: 'Lee',
    ...over,
  });

/** The fields the schema refuses, with their messages. */
function issues(body: unknown): Record<string, string> {
  const result = brandRegistrationSchema.safeParse(body);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('brandRegistrationSchema', () => {
  it('normalises a company: EIN digits, https website, E.164 phone, display name from the legal name', () => {
    expect(brandRegistrationSchema.parse(company())).toEqual({
      scenarioId: 'own_brand',
      businessType: 'PRIVATE_PROFIT',
      legalName: 'Acme Corp',
      displayName: 'Acme Corp',
      taxId: '123456789',
      website: 'https://acme.example/',
      country: 'US',
      street: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      complianceContactEmail: 'legal@acme.example',
      complianceContactPhone: '+12175550134',
    });
  });

  it.each(['PRIVATE_PROFIT', 'PUBLIC_PROFIT', 'NON_PROFIT', 'GOVERNMENT'])(
    '%s needs a legal name and a tax id, and takes no first or last name',
    (businessType) => {
      expect(issues(company({ businessType, legalName: undefined, taxId: undefined }))).toEqual({
        legalName: `required for ${businessType}`,
        taxId: `required for ${businessType}`,
      });
      expect(issues(company({ businessType, firstName: 'Ann', lastName: 'Lee' }))).toEqual({
        firstName: 'only for SOLE_PROPRIETOR',
        lastName: 'only for SOLE_PROPRIETOR',
      });
    },
  );

  it('a sole proprietor is a person: first and last name required, no tax id, names as the brand', () => {
    expect(brandRegistrationSchema.parse(sole())).toMatchObject({
      firstName: 'Ann',
      lastName: 'Lee',
      legalName: 'Ann Lee',
      displayName: 'Ann Lee',
    });
    expect(brandRegistrationSchema.parse(sole())).not.toHaveProperty('taxId');
    expect(brandRegistrationSchema.parse(sole({ legalName: 'Ann Bakes' }))).toMatchObject({
      legalName: 'Ann Bakes',
      displayName: 'Ann Bakes',
    });
    expect(issues(sole({ firstName: undefined, lastName: undefined }))).toEqual({
      firstName: 'required for SOLE_PROPRIETOR',
      lastName: 'required for SOLE_PROPRIETOR',
    });
    expect(issues(sole({ taxId: '123456789' }))).toEqual({
      taxId: 'must be left out for SOLE_PROPRIETOR (a person has no EIN)',
    });
  });

  it('keeps a display name that is given', () => {
    expect(brandRegistrationSchema.parse(company({ displayName: 'Acme' })).displayName).toBe('Acme');
  });

  it('reads tax ids by country: US EIN and Canadian BN are nine digits, others a national id', () => {
    const taxId = (id: string, country = 'US', extra = {}) =>
      brandRegistrationSchema.safeParse(company({ taxId: id, country, ...extra }));
    expect(taxId('123456789').data?.taxId).toBe('123456789');
    expect(issues(company({ taxId: '12-345678' })).taxId).toMatch(/9-digit EIN/);
    expect(issues(company({ taxId: 'AB-3456789' })).taxId).toMatch(/9-digit EIN/);
    expect(issues(company({ taxId: '000000000' })).taxId).toMatch(/9-digit EIN/);
    const canada = { state: 'ON', postalCode: 'k1a0b1', complianceContactPhone: '+14165550123' };
    expect(taxId('123 456 789', 'CA', canada).data?.taxId).toBe('123456789');
    expect(issues(company({ taxId: '12345678', country: 'CA', ...canada })).taxId).toMatch(/Business Number/);
    const uk = { state: undefined, postalCode: 'SW1A 1AA', complianceContactPhone: '+442079460958' };
    expect(taxId('gb 123-456.78', 'GB', uk).data?.taxId).toBe('GB 123-456.78');
    expect(issues(company({ taxId: '--', country: 'GB', ...uk })).taxId).toMatch(/national business tax id/);
    expect(issues(company({ taxId: 'x'.repeat(33) })).taxId).toMatch(/<=32 characters/);
  });

  it('prepends https:// to a bare website and accepts no other scheme', () => {
    const website = (value: string) => brandRegistrationSchema.safeParse(company({ website: value }));
    expect(website('www.acme.example/about').data?.website).toBe('https://www.acme.example/about');
    expect(website('https://acme.example').data?.website).toBe('https://acme.example/');
    expect(issues(company({ website: 'http://acme.example' })).website).toBe('expected an https:// address');
    expect(issues(company({ website: 'ftp://acme.example' })).website).toBe('expected an https:// address');
    expect(issues(company({ website: 'localhost' })).website).toMatch(/web address/);
    expect(issues(company({ website: 'user:pw@acme.example' })).website).toMatch(/web address/);
    expect(issues(company({ website: 'exa mple.com' })).website).toMatch(/web address/);
  });

  it('normalises the compliance phone by country', () => {
    const phone = (value: string, country = 'US', extra = {}) =>
      brandRegistrationSchema.safeParse(company({ complianceContactPhone: value, country, ...extra })).data
        ?.complianceContactPhone;
    expect(phone('217-555-0134')).toBe('+12175550134');
    expect(phone('+44 20 7946 0958')).toBe('+442079460958');
    expect(phone('020 7946 0958', 'GB', { taxId: 'GB123', state: undefined, postalCode: undefined })).toBe(
      '+442079460958',
    );
    expect(issues(company({ complianceContactPhone: '12345' })).complianceContactPhone).toMatch(/E\.164/);
  });

  it('checks state and postal code for the US and Canada, and takes others as given', () => {
    expect(issues(company({ state: 'XX', postalCode: '1234' }))).toEqual({
      state: 'expected a US state code such as CA or NY',
      postalCode: 'expected a ZIP code: 12345 or 12345-6789',
    });
    expect(issues(company({ state: undefined, postalCode: undefined }))).toMatchObject({
      state: expect.any(String),
      postalCode: expect.any(String),
    });
    expect(brandRegistrationSchema.parse(company({ state: 'il', postalCode: '62701-1234' }))).toMatchObject({
      state: 'IL',
      postalCode: '62701-1234',
    });
    const canada = { country: 'CA', taxId: '123456789', complianceContactPhone: '+14165550123' };
    expect(
      brandRegistrationSchema.parse(company({ ...canada, state: 'qc', postalCode: 'h2x1y4' })),
    ).toMatchObject({
      state: 'QC',
      postalCode: 'H2X 1Y4',
    });
    expect(issues(company({ ...canada, state: 'IL', postalCode: '62701' }))).toEqual({
      state: 'expected a province code such as ON or QC',
      postalCode: 'expected a postal code such as K1A 0B1',
    });
    expect(issues(company({ ...canada, state: 'ON', postalCode: 'D1A 1A1' })).postalCode).toBeDefined();
  });

  it('needs an ISO country, a valid email and the enums; every string is bounded', () => {
    expect(issues(company({ country: 'ZZ' }))).toEqual({
      country: 'expected an ISO 3166-1 alpha-2 code such as US',
    });
    expect(issues(company({ country: 'USA' })).country).toBeDefined();
    expect(brandRegistrationSchema.parse(company({ country: 'us' })).country).toBe('US');
    expect(issues(company({ complianceContactEmail: 'not-an-email' })).complianceContactEmail).toBeDefined();
    expect(issues(company({ scenarioId: 'someone_brand' })).scenarioId).toBeDefined();
    expect(issues(company({ businessType: 'LLC' })).businessType).toBeDefined();
    expect(issues(company({ legalName: 'x'.repeat(201) })).legalName).toBeDefined();
    expect(issues(company({ street: 'x'.repeat(201) })).street).toBeDefined();
    expect(issues(company({ city: '' })).city).toBeDefined();
  });

  it('answers a body with only the one-line fullAddress by naming street and city', () => {
    expect(
      issues(company({ street: undefined, city: undefined, fullAddress: '1 Main St, Springfield, IL' })),
    ).toEqual({
      street: expect.stringContaining('fullAddress is not accepted'),
      city: expect.stringContaining('fullAddress is not accepted'),
    });
    expect(issues(company({ street: undefined }))).toEqual({ street: 'required' });
    expect(brandRegistrationSchema.parse(company({ fullAddress: 'ignored' }))).not.toHaveProperty(
      'fullAddress',
    );
  });
});
