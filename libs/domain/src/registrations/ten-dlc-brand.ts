import { z } from 'zod';
import { isPhoneCountry, parsePhoneNumber, type PhoneCountry } from '../phone/phone-number';
import { emailAddressSchema } from '../sends/send-body';
import { Limits } from '../validation/limits';

/** own_brand: the account's own project or company; client_brand: an agency registering a client. */
export const SCENARIO_IDS = ['own_brand', 'client_brand'] as const;
export const BUSINESS_TYPES = [
  'PRIVATE_PROFIT',
  'SOLE_PROPRIETOR',
  'PUBLIC_PROFIT',
  'NON_PROFIT',
  'GOVERNMENT',
] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];

/** US states, the District of Columbia and the inhabited territories (USPS codes). */
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ' +
    'ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP'
  ).split(' '),
);
/** Canadian provinces and territories (Canada Post codes). */
const CA_PROVINCES = new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '));

const ZIP = /^\d{5}(?:-\d{4})?$/;
/** A Canadian postal code, `A1A 1A1` (letters D, F, I, O, Q and U never appear; W and Z never first). */
const CA_POSTAL = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]) ?(\d[ABCEGHJ-NPRSTV-Z]\d)$/;
const NINE_DIGITS = /^\d{9}$/;
/** Another country's business id: letters and digits, with the separators such ids are written with. */
const NATIONAL_ID = /^[A-Z0-9][A-Z0-9 ./-]*[A-Z0-9]$/;
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

const text = (max: number) => z.string().trim().min(1).max(max);

/** The body of `POST /registrations/us/10dlc/brand`: every field bounded, before the rules that tie them together. */
const brandBodyShape = z.object({
  scenarioId: z.enum(SCENARIO_IDS),
  businessType: z.enum(BUSINESS_TYPES),
  legalName: text(Limits.name).optional(),
  displayName: text(Limits.name).optional(),
  firstName: text(100).optional(),
  lastName: text(100).optional(),
  taxId: text(32).optional(),
  website: text(Limits.url),
  country: z
    .string()
    .trim()
    .length(2)
    .transform((country) => country.toUpperCase()),
  street: text(200).optional(),
  city: text(100).optional(),
  state: text(64).optional(),
  postalCode: text(16).optional(),
  complianceContactEmail: emailAddressSchema,
  complianceContactPhone: text(32),
  /** The pingram client's one-line address, which new registrations replace with its parts. */
  fullAddress: text(1_000).optional(),
});
type BrandBody = z.output<typeof brandBodyShape>;

/** What the account submits for review, every field checked and normalised. */
export interface BrandDetails {
  readonly scenarioId: (typeof SCENARIO_IDS)[number];
  readonly businessType: BusinessType;
  readonly legalName: string;
  readonly displayName: string;
  /** Only for SOLE_PROPRIETOR. */
  readonly firstName?: string;
  readonly lastName?: string;
  /** Every business type but SOLE_PROPRIETOR. */
  readonly taxId?: string;
  /** An https URL. */
  readonly website: string;
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string;
  readonly street: string;
  readonly city: string;
  readonly state?: string;
  readonly postalCode?: string;
  readonly complianceContactEmail: string;
  /** E.164. */
  readonly complianceContactPhone: string;
}

type Issue = { readonly field: keyof BrandBody; readonly message: string };

/** A tax id as the country writes it: US EIN and Canadian BN are nine digits; others a bounded national id. */
function normalizeTaxId(taxId: string, country: string): string | Issue {
  if (country === 'US' || country === 'CA') {
    // An EIN is written 12-3456789, a BN sometimes in groups: only the digits count.
    const digits = taxId.replace(/[\s-]/g, '');
    if (NINE_DIGITS.test(digits) && !/^0+$/.test(digits)) return digits;
    return {
      field: 'taxId',
      message:
        country === 'US'
          ? 'expected a 9-digit EIN such as 12-3456789'
          : 'expected the 9-digit Business Number (BN) such as 123456789',
    };
  }
  const id = taxId.toUpperCase();
  return NATIONAL_ID.test(id)
    ? id
    : {
        field: 'taxId',
        message: 'expected a national business tax id: letters and digits, with - . / or spaces',
      };
}

/** `https://` is prepended to a bare host; the result must be an https URL of a named host. */
function normalizeWebsite(website: string): string | Issue {
  const candidate = HAS_SCHEME.test(website) ? website : `https://${website}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { field: 'website', message: 'expected a web address such as https://example.com' };
  }
  if (url.protocol !== 'https:') return { field: 'website', message: 'expected an https:// address' };
  if (url.username !== '' || url.password !== '' || !url.hostname.includes('.'))
    return { field: 'website', message: 'expected a web address such as https://example.com' };
  const normalized = url.toString();
  return normalized.length <= Limits.url
    ? normalized
    : { field: 'website', message: `longer than ${Limits.url} characters` };
}

/** A number in E.164, or a national number of the brand's country. */
function normalizeCompliancePhone(phone: string, country: PhoneCountry): string | Issue {
  return (
    parsePhoneNumber(phone, country)?.e164 ?? {
      field: 'complianceContactPhone',
      message: `expected a phone number in E.164 (+14155552671) or a valid national number of ${country}`,
    }
  );
}

/** State and postal code are checked for the US and Canada, and required there. */
function addressIssues(body: BrandBody): { issues: Issue[]; state?: string; postalCode?: string } {
  const state = body.state?.toUpperCase();
  const postal = body.postalCode?.toUpperCase();
  if (body.country === 'US' || body.country === 'CA') {
    const us = body.country === 'US';
    const issues: Issue[] = [];
    if (state === undefined || !(us ? US_STATES : CA_PROVINCES).has(state))
      issues.push({
        field: 'state',
        message: us
          ? 'expected a US state code such as CA or NY'
          : 'expected a province code such as ON or QC',
      });
    const caPostal = postal === undefined ? null : CA_POSTAL.exec(postal);
    if (postal === undefined || (us ? !ZIP.test(postal) : caPostal === null))
      issues.push({
        field: 'postalCode',
        message: us ? 'expected a ZIP code: 12345 or 12345-6789' : 'expected a postal code such as K1A 0B1',
      });
    return {
      issues,
      state,
      postalCode: caPostal === null || caPostal === undefined ? postal : `${caPostal[1]} ${caPostal[2]}`,
    };
  }
  return { issues: [], state: body.state, postalCode: body.postalCode };
}

/** The rules that depend on the business type: who the brand is, and its tax id. */
function entityIssues(body: BrandBody): Issue[] {
  const issues: Issue[] = [];
  if (body.businessType === 'SOLE_PROPRIETOR') {
    if (body.firstName === undefined)
      issues.push({ field: 'firstName', message: 'required for SOLE_PROPRIETOR' });
    if (body.lastName === undefined)
      issues.push({ field: 'lastName', message: 'required for SOLE_PROPRIETOR' });
    if (body.taxId !== undefined)
      issues.push({ field: 'taxId', message: 'must be left out for SOLE_PROPRIETOR (a person has no EIN)' });
    return issues;
  }
  if (body.legalName === undefined)
    issues.push({ field: 'legalName', message: `required for ${body.businessType}` });
  if (body.taxId === undefined) issues.push({ field: 'taxId', message: `required for ${body.businessType}` });
  for (const field of ['firstName', 'lastName'] as const)
    if (body[field] !== undefined) issues.push({ field, message: 'only for SOLE_PROPRIETOR' });
  return issues;
}

/**
 * Checks a brand registration against every rule that ties its fields together and normalises it:
 * per business type (a sole proprietor is a person: first and last name, no tax id; every other
 * entity: legal name and tax id), tax id format by country, https website, compliance phone in
 * E.164, and state and postal code for the US and Canada. `fullAddress` alone is not enough: the
 * address is registered by its parts, as carriers match it against the tax registration.
 */
function checkBrand(body: BrandBody): { details: BrandDetails } | { issues: Issue[] } {
  const issues = entityIssues(body);
  const { country } = body;
  if (!isPhoneCountry(country))
    return {
      issues: [...issues, { field: 'country', message: 'expected an ISO 3166-1 alpha-2 code such as US' }],
    };
  for (const field of ['street', 'city'] as const)
    if (body[field] === undefined)
      issues.push({
        field,
        message:
          body.fullAddress === undefined
            ? 'required'
            : 'required: give the address as street, city, state and postalCode (fullAddress is not accepted for new registrations)',
      });
  const address = addressIssues(body);
  issues.push(...address.issues);
  const taxId = body.taxId === undefined ? undefined : normalizeTaxId(body.taxId, body.country);
  const website = normalizeWebsite(body.website);
  const phone = normalizeCompliancePhone(body.complianceContactPhone, country);
  for (const value of [taxId, website, phone]) if (typeof value === 'object') issues.push(value);
  if (
    issues.length > 0 ||
    typeof website !== 'string' ||
    typeof phone !== 'string' ||
    typeof taxId === 'object'
  )
    return { issues };
  const sole = body.businessType === 'SOLE_PROPRIETOR';
  const person = sole ? `${body.firstName} ${body.lastName}` : '';
  const legalName = body.legalName ?? person;
  return {
    details: {
      scenarioId: body.scenarioId,
      businessType: body.businessType,
      legalName,
      displayName: body.displayName ?? legalName,
      ...(sole ? { firstName: body.firstName, lastName: body.lastName } : { taxId }),
      website,
      country: body.country,
      street: body.street ?? '',
      city: body.city ?? '',
      ...(address.state !== undefined ? { state: address.state } : {}),
      ...(address.postalCode !== undefined ? { postalCode: address.postalCode } : {}),
      complianceContactEmail: body.complianceContactEmail,
      complianceContactPhone: phone,
    },
  };
}

/**
 * `POST /registrations/us/10dlc/brand`: the bounded body, then the brand rules; every violation is
 * an issue on its field (400 VALIDATION_ERROR naming each), and the output is the normalised brand.
 */
export const brandRegistrationSchema = brandBodyShape.transform((body, context): BrandDetails => {
  const checked = checkBrand(body);
  if ('details' in checked) return checked.details;
  for (const issue of checked.issues)
    context.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  return z.NEVER;
});
export type BrandRegistrationBody = z.input<typeof brandRegistrationSchema>;
