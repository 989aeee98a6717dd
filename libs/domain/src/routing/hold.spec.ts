import { holdFor } from './hold';

const at = (iso: string) => Date.parse(iso);
const nights = { start: '22:00', end: '07:00' };
const send = (scheduledFor?: number) => ({
  notificationId: 'welcome',
  userId: 'u-1',
  recipient: {},
  parameters: {},
  ...(scheduledFor !== undefined ? { scheduledFor } : {}),
});

describe('holdFor', () => {
  it("holds a send that arrives in the user's quiet hours until they end", () => {
    expect(holdFor({ send: send() }, {}, { quietHours: nights }, at('2026-01-05T23:30:00Z'))).toEqual({
      heldUntil: at('2026-01-06T07:00:00Z'),
      held: true,
    });
  });

  it("follows the user's time zone, and the type's quiet hours when the user has none", () => {
    expect(
      holdFor(
        { send: send() },
        { quietHours: nights },
        { timezone: 'America/New_York' },
        at('2026-01-06T04:00:00Z'),
      ),
    ).toEqual({ heldUntil: at('2026-01-06T12:00:00Z'), held: true });
  });

  it('lets a send outside quiet hours go at once', () => {
    expect(holdFor({ send: send() }, { quietHours: nights }, {}, at('2026-01-05T12:00:00Z'))).toEqual({
      held: false,
    });
  });

  it('does not hold an urgent type in quiet hours', () => {
    expect(
      holdFor({ send: send() }, { urgent: true }, { quietHours: nights }, at('2026-01-05T23:30:00Z')),
    ).toEqual({
      held: false,
    });
  });

  it('does not hold a released send again, but still tells when it was due', () => {
    const due = at('2026-01-05T23:00:00Z');
    expect(
      holdFor({ send: send(due), released: true }, {}, { quietHours: nights }, at('2026-01-05T23:30:00Z')),
    ).toEqual({ heldUntil: due, held: false });
    expect(
      holdFor({ send: send(), released: true }, {}, { quietHours: nights }, at('2026-01-05T23:30:00Z')),
    ).toEqual({
      held: false,
    });
  });

  it('holds a scheduled send until its schedule, quiet hours or not', () => {
    const due = at('2026-01-05T23:10:00Z');
    expect(holdFor({ send: send(due) }, {}, { quietHours: nights }, at('2026-01-05T20:00:00Z'))).toEqual({
      heldUntil: due,
      held: true,
    });
  });
});
