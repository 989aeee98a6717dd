/**
 * How carriers cut a text into SMS segments (3GPP TS 23.038 and 23.040): a text made only of GSM
 * 03.38 characters travels as 7-bit septets, 160 in one message or 153 per segment of a
 * concatenated one (the user data header takes the rest); characters of the extension table
 * (`^{}\[~]|€` and form feed) take two septets, an escape and the character, and are never split
 * across segments. Any other character makes the whole text UCS-2: 70 UTF-16 code units in one
 * message, 67 per segment, a surrogate pair never split.
 */
export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  readonly encoding: SmsEncoding;
  /** Messages the carrier delivers (0 for an empty text). */
  readonly segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  readonly units: number;
}

const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENSION = new Set('^{}\\[~]|€\f');

const LIMITS = {
  'GSM-7': { single: 160, segment: 153 },
  'UCS-2': { single: 70, segment: 67 },
} as const;

/** Units each character takes, in order; undefined when the text cannot be sent as GSM-7. */
function gsmUnits(text: string): number[] | undefined {
  const units: number[] = [];
  for (const char of text) {
    if (GSM_BASIC.has(char)) units.push(1);
    else if (GSM_EXTENSION.has(char)) units.push(2);
    else return undefined;
  }
  return units;
}

/** Code units per character (2 for a character outside the Basic Multilingual Plane). */
const ucs2Units = (text: string): number[] => Array.from(text, (char) => char.length);

/** Fills segments in order, moving a character that does not fit whole to the next one. */
function countSegments(units: readonly number[], perSegment: number): number {
  let segments = 1;
  let used = 0;
  for (const size of units) {
    if (used + size > perSegment) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return segments;
}

export function smsSegments(text: string): SmsSegments {
  const gsm = gsmUnits(text);
  const encoding: SmsEncoding = gsm === undefined ? 'UCS-2' : 'GSM-7';
  const units = gsm ?? ucs2Units(text);
  const total = units.reduce((sum, size) => sum + size, 0);
  const limits = LIMITS[encoding];
  const segments = total === 0 ? 0 : total <= limits.single ? 1 : countSegments(units, limits.segment);
  return { encoding, segments, units: total };
}
