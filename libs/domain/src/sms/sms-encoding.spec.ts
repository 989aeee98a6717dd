import { smsSegments } from './sms-encoding';

describe('smsSegments', () => {
  it('sends plain text as GSM-7: 160 septets in one message, 153 per segment beyond', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2, units: 161 });
    expect(smsSegments('a'.repeat(306))).toMatchObject({ segments: 2 });
    expect(smsSegments('a'.repeat(307))).toMatchObject({ segments: 3 });
  });

  it('counts GSM accented letters and symbols of the basic table as one septet', () => {
    const text = 'Ça va? £3 à Zürich, ¡si! ñ Ø Δ ¿ §';
    expect(smsSegments(text)).toEqual({ encoding: 'GSM-7', segments: 1, units: text.length });
    // í and û are not in GSM 03.38 (é and ù are): one of them makes the whole text UCS-2.
    expect(smsSegments('Ça va? ¡sí!')).toMatchObject({ encoding: 'UCS-2' });
    expect(smsSegments('coûte')).toMatchObject({ encoding: 'UCS-2' });
  });

  it('counts extension characters as two septets and never splits one across segments', () => {
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(smsSegments(`${'€'.repeat(80)}a`)).toMatchObject({ segments: 2, units: 161 });
    // 152 septets, then an escape pair that does not fit in the 153rd: it opens segment 2.
    expect(smsSegments(`${'a'.repeat(152)}{${'a'.repeat(10)}`)).toMatchObject({ segments: 2, units: 164 });
    expect(smsSegments(`${'a'.repeat(152)}{${'a'.repeat(152)}`)).toMatchObject({ segments: 3, units: 306 });
  });

  it('switches the whole text to UCS-2 for any other character: 70 units, 67 per segment', () => {
    expect(smsSegments('Привет')).toEqual({ encoding: 'UCS-2', segments: 1, units: 6 });
    expect(smsSegments(`${'a'.repeat(69)}ç`)).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    expect(smsSegments(`${'a'.repeat(70)}ç`)).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(smsSegments('я'.repeat(134))).toMatchObject({ segments: 2 });
    expect(smsSegments('я'.repeat(135))).toMatchObject({ segments: 3 });
  });

  it('counts an emoji as two code units and keeps its surrogate pair in one segment', () => {
    expect(smsSegments('🎉'.repeat(35))).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    // 66 units, then a pair that would straddle the 67-unit boundary: it opens segment 2.
    expect(smsSegments(`${'я'.repeat(66)}🎉${'я'.repeat(10)}`)).toMatchObject({ segments: 2, units: 78 });
    expect(smsSegments(`${'я'.repeat(66)}🎉${'я'.repeat(66)}`)).toMatchObject({ segments: 3 });
  });

  it('gives no segment for an empty text', () => {
    expect(smsSegments('')).toEqual({ encoding: 'GSM-7', segments: 0, units: 0 });
  });
});
