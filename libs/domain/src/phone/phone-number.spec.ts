import { normalizePhoneNumber, parsePhoneNumber } from './phone-number';

describe('parsePhoneNumber', () => {
  it.each([
    ['+14155552671', '+14155552671', 'US'],
    ['+1 (415) 555-2671', '+14155552671', 'US'],
    ['(415) 555-2671', '+14155552671', 'US'],
    ['4155552671', '+14155552671', 'US'],
    ['1-415-555-2671', '+14155552671', 'US'],
    ['604-555-0134', '+16045550134', 'CA'],
    ['+447911123456', '+447911123456', 'GG'],
    ['+33 6 12 34 56 78', '+33612345678', 'FR'],
    ['+15005550006', '+15005550006', 'US'],
  ])('reads %s as %s in %s', (input, e164, country) => {
    expect(parsePhoneNumber(input)).toEqual({ e164, country });
  });

  it.each([
    '',
    '12345',
    '555-1234',
    '+999123456789',
    '447911123456',
    'call me',
    '+1415555267199999',
    '+33 6',
  ])('refuses %p', (input) => {
    expect(normalizePhoneNumber(input)).toBeUndefined();
  });

  it("reads a national number by the default country's plan, and only as that country's", () => {
    expect(parsePhoneNumber('020 7946 0958', 'GB')).toEqual({ e164: '+442079460958', country: 'GB' });
    expect(parsePhoneNumber('416 555 0123', 'CA')).toEqual({ e164: '+14165550123', country: 'CA' });
    expect(parsePhoneNumber('+1 415 555 2671', 'GB')).toEqual({ e164: '+14155552671', country: 'US' });
    expect(parsePhoneNumber('020 7946 0958')).toBeUndefined();
    expect(parsePhoneNumber('00 1 415 555 2671', 'GB')).toBeUndefined();
  });

  it('refuses overlong input without parsing it', () => {
    expect(normalizePhoneNumber(`+1${'4'.repeat(40)}`)).toBeUndefined();
  });
});
