/**
 * Wall-clock arithmetic in IANA time zones, on instants (epoch ms). A "wall" time is the local
 * date-time written as if it were UTC (Date.UTC of its fields), which makes day and minute
 * arithmetic plain integer arithmetic.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Zones are validated IANA names; a handful are in use at once.
    if (formats.size < 1_000) formats.set(zone, format);
  }
  return format;
}

/** Milliseconds to add to UTC to get wall-clock time in `zone` at instant `epochMs`. */
export function zoneOffsetMs(zone: string, epochMs: number): number {
  const parts = formatIn(zone).formatToParts(new Date(epochMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(epochMs / 1000) * 1000;
}

/** The wall time in `zone` at instant `epochMs`. */
export const wallAt = (epochMs: number, zone: string): number => epochMs + zoneOffsetMs(zone, epochMs);

/**
 * The instant a wall time in `zone` names. The offset depends on the instant it applies to; one
 * correction handles DST changes: a wall time in a spring-forward gap lands just after it, one in
 * a fall-back overlap on its first occurrence.
 */
export function instantOf(wall: number, zone: string): number {
  const first = wall - zoneOffsetMs(zone, wall);
  return wall - zoneOffsetMs(zone, first);
}
