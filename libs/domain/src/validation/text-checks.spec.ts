import { hasControlCharacters, isBase64, isEmailAddress } from './text-checks';

describe('isBase64', () => {
  it.each([
    ['aGVsbG8=', true],
    ['aGVs\r\nbG8=\n', true],
    ['aGVsbG8', true],
    ['', true],
    ['aGVs==bG8', false],
    ['aGVsbG8===', false],
    ['aGVs bG8!', false],
    ['aGV-bG8_', false],
  ])('%p → %p', (text, expected) => expect(isBase64(text)).toBe(expected));

  it('rejects a 1 MB hostile string (newlines, one bad byte) in linear time', () => {
    const hostile = `${'\n'.repeat(1_048_576)}!`;
    const started = process.hrtime.bigint();
    expect(isBase64(hostile)).toBe(false);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // Linear: a few milliseconds. The backtracking pattern it replaces needs hours for this input.
    expect(elapsedMs).toBeLessThan(100);
  });
});

describe('isEmailAddress', () => {
  it.each([
    ['ann@example.com', true],
    ['ann.b+tag@mail.example.co.uk', true],
    ['a,b@example.com', false],
    ['ann@example.com, bob@example.com', false],
    ['Ann <ann@example.com>', false],
    ['ann@@example.com', false],
    ['ann@example', false],
    ['ann@.example.com', false],
    ['ann@example..com', false],
    ['@example.com', false],
    ['ann@example.com\r\nBcc: x@evil.test', false],
    ['"ann"@example.com', false],
    [`${'a'.repeat(65)}@example.com`, false],
  ])('%p → %p', (text, expected) => expect(isEmailAddress(text)).toBe(expected));

  it('rejects a hostile 1 MB address in linear time', () => {
    const hostile = `a@${'.'.repeat(1_048_576)}!`;
    const started = process.hrtime.bigint();
    expect(isEmailAddress(hostile)).toBe(false);
    expect(isEmailAddress(`a@${'b.'.repeat(500_000)}`)).toBe(false);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(100);
  });
});

describe('hasControlCharacters', () => {
  it('finds line breaks and other controls', () => {
    expect(hasControlCharacters('Acme Shop')).toBe(false);
    expect(hasControlCharacters('Acme\r\nBcc: x')).toBe(true);
    expect(hasControlCharacters('tab\there')).toBe(true);
  });
});
