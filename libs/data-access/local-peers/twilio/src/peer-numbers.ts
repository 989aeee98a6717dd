import { randomBytes } from 'node:crypto';
import { type Answer, error } from './peer-answer';

interface Area {
  readonly country: string;
  readonly areaCode: string;
  readonly locality: string;
  readonly region: string;
  readonly postalCode: string;
  readonly mms: boolean;
}

/** The areas the peer sells numbers in (US and Canada); Canadian local numbers take no MMS, as at Twilio. */
const AREAS: readonly Area[] = [
  { country: 'US', areaCode: '415', locality: 'San Francisco', region: 'CA', postalCode: '94103', mms: true },
  { country: 'US', areaCode: '212', locality: 'New York', region: 'NY', postalCode: '10001', mms: true },
  { country: 'US', areaCode: '512', locality: 'Austin', region: 'TX', postalCode: '78701', mms: true },
  { country: 'US', areaCode: '206', locality: 'Seattle', region: 'WA', postalCode: '98101', mms: true },
  { country: 'CA', areaCode: '416', locality: 'Toronto', region: 'ON', postalCode: 'M5H', mms: false },
  { country: 'CA', areaCode: '604', locality: 'Vancouver', region: 'BC', postalCode: 'V6B', mms: false },
  { country: 'CA', areaCode: '514', locality: 'Montreal', region: 'QC', postalCode: 'H2Y', mms: false },
];

interface PoolNumber {
  readonly phoneNumber: string;
  readonly area: Area;
}

/** Each area's numbers are 555-0100 … 555-0199, the exchange set aside for fiction: none rings a real phone. */
const POOL: readonly PoolNumber[] = AREAS.flatMap((area) =>
  Array.from({ length: 100 }, (_, i) => ({ phoneNumber: `+1${area.areaCode}5550${100 + i}`, area })),
);
const BY_NUMBER = new Map(POOL.map((entry) => [entry.phoneNumber, entry]));

const KEYPAD: Readonly<Record<string, string>> = Object.fromEntries(
  ['abc', 'def', 'ghi', 'jkl', 'mno', 'pqrs', 'tuv', 'wxyz'].flatMap((letters, i) =>
    [...letters].map((letter) => [letter, String(i + 2)]),
  ),
);
/** Twilio's `Contains`: digits, and letters standing for their keypad digits. */
const digitsOf = (pattern: string) => [...pattern.toLowerCase()].map((c) => KEYPAD[c] ?? c).join('');

/** `(415) 555-0100`, as Twilio names a North American number. */
const friendly = (e164: string) => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;
const flag = (value: string | null) => (value === null ? undefined : value.toLowerCase() === 'true');
const DEFAULT_PAGE_SIZE = 50;
const pageSize = (query: URLSearchParams) =>
  Math.min(Math.max(Number(query.get('PageSize') ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE, 1), 1_000);

interface Owned {
  readonly sid: string;
  readonly phoneNumber: string;
  readonly friendlyName: string;
  readonly dateCreated: string;
}

/**
 * Twilio's AvailablePhoneNumbers and IncomingPhoneNumbers resources over a fixed pool of numbers:
 * a number the account bought is no longer offered, and one it released is offered again.
 */
export class PeerNumbers {
  private readonly owned = new Map<string, Owned>();

  constructor(private readonly accountSid: string) {}

  /** `GET …/AvailablePhoneNumbers/{Country}/Local.json?AreaCode&Contains&SmsEnabled&MmsEnabled&VoiceEnabled&PageSize`. */
  available(country: string, query: URLSearchParams): Answer {
    if (!AREAS.some((area) => area.country === country))
      return error(404, 20404, `The requested resource /AvailablePhoneNumbers/${country} was not found`);
    const areaCode = query.get('AreaCode');
    const contains = query.get('Contains');
    const mms = flag(query.get('MmsEnabled'));
    const taken = new Set([...this.owned.values()].map((owned) => owned.phoneNumber));
    const numbers = POOL.filter(({ phoneNumber, area }) => {
      if (area.country !== country || taken.has(phoneNumber)) return false;
      if (areaCode !== null && area.areaCode !== areaCode) return false;
      if (contains !== null && !phoneNumber.slice(1).includes(digitsOf(contains))) return false;
      return mms !== true || area.mms;
    })
      .slice(0, pageSize(query))
      .map(({ phoneNumber, area }) => ({
        friendly_name: friendly(phoneNumber),
        phone_number: phoneNumber,
        lata: null,
        locality: area.locality,
        rate_center: area.locality.toUpperCase(),
        latitude: null,
        longitude: null,
        region: area.region,
        postal_code: area.postalCode,
        iso_country: area.country,
        address_requirements: 'none',
        beta: false,
        // Twilio spells these capitals here, and lower case on IncomingPhoneNumbers.
        capabilities: { voice: true, SMS: true, MMS: area.mms, fax: false },
      }));
    return {
      status: 200,
      body: {
        available_phone_numbers: numbers,
        uri: `/2010-04-01/Accounts/${this.accountSid}/AvailablePhoneNumbers/${country}/Local.json`,
      },
    };
  }

  /** `POST …/IncomingPhoneNumbers.json` with `PhoneNumber` (and `FriendlyName`): buys it when it is offered. */
  buy(form: URLSearchParams): Answer {
    const phoneNumber = form.get('PhoneNumber') ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(phoneNumber)) return error(400, 21421, 'PhoneNumber is invalid');
    if (!BY_NUMBER.has(phoneNumber) || [...this.owned.values()].some((o) => o.phoneNumber === phoneNumber))
      return error(400, 21422, 'PhoneNumber is not available');
    const owned: Owned = {
      sid: `PN${randomBytes(16).toString('hex')}`,
      phoneNumber,
      friendlyName: form.get('FriendlyName') ?? friendly(phoneNumber),
      dateCreated: new Date().toUTCString(),
    };
    this.owned.set(owned.sid, owned);
    return { status: 201, body: this.resource(owned) };
  }

  /** `GET …/IncomingPhoneNumbers.json?PhoneNumber&FriendlyName&PageSize`: the account's numbers, oldest first. */
  list(query: URLSearchParams): Answer {
    const phoneNumber = query.get('PhoneNumber');
    const friendlyName = query.get('FriendlyName');
    const numbers = [...this.owned.values()]
      .filter(
        (o) =>
          (phoneNumber === null || o.phoneNumber === phoneNumber) &&
          (friendlyName === null || o.friendlyName === friendlyName),
      )
      .slice(0, pageSize(query))
      .map((o) => this.resource(o));
    const uri = `/2010-04-01/Accounts/${this.accountSid}/IncomingPhoneNumbers.json`;
    return {
      status: 200,
      body: {
        incoming_phone_numbers: numbers,
        page: 0,
        page_size: numbers.length,
        start: 0,
        end: Math.max(numbers.length - 1, 0),
        first_page_uri: uri,
        next_page_uri: null,
        previous_page_uri: null,
        uri,
      },
    };
  }

  /** `DELETE …/IncomingPhoneNumbers/{Sid}.json`: the number goes back to the pool. */
  release(sid: string): Answer {
    if (!this.owned.delete(sid))
      return error(404, 20404, `The requested resource /IncomingPhoneNumbers/${sid}.json was not found`);
    return { status: 204 };
  }

  private resource(owned: Owned) {
    const mms = BY_NUMBER.get(owned.phoneNumber)?.area.mms ?? false;
    return {
      sid: owned.sid,
      account_sid: this.accountSid,
      phone_number: owned.phoneNumber,
      friendly_name: owned.friendlyName,
      capabilities: { voice: true, sms: true, mms, fax: false },
      status: 'in-use',
      origin: 'twilio',
      address_requirements: 'none',
      beta: false,
      api_version: '2010-04-01',
      sms_url: '',
      voice_url: '',
      status_callback: '',
      date_created: owned.dateCreated,
      date_updated: owned.dateCreated,
      uri: `/2010-04-01/Accounts/${this.accountSid}/IncomingPhoneNumbers/${owned.sid}.json`,
    };
  }
}
