import { InvalidScheduleError, parseSchedule } from './schedule';

describe('parseSchedule', () => {
  it.each([
    ['2030-01-31T09:00:00Z', '2030-01-31T09:00:00.000Z'],
    ['2030-01-31T09:00:00.250Z', '2030-01-31T09:00:00.250Z'],
    ['2030-01-31T09:00:00+02:00', '2030-01-31T07:00:00.000Z'],
    ['2030-01-31T09:00:00-0530', '2030-01-31T14:30:00.000Z'],
    ['2030-01-31 09:00', '2030-01-31T09:00:00.000Z'],
    ['2030-01-31', '2030-01-31T00:00:00.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(new Date(parseSchedule(input)).toISOString()).toBe(expected);
  });

  it('reads a time without offset in the user time zone, across DST', () => {
    expect(new Date(parseSchedule('2030-01-15T09:00:00', 'America/New_York')).toISOString()).toBe(
      '2030-01-15T14:00:00.000Z',
    );
    expect(new Date(parseSchedule('2030-07-15T09:00:00', 'America/New_York')).toISOString()).toBe(
      '2030-07-15T13:00:00.000Z',
    );
    expect(new Date(parseSchedule('2030-07-15T09:00:00Z', 'America/New_York')).toISOString()).toBe(
      '2030-07-15T09:00:00.000Z',
    );
  });

  it.each(['tomorrow', '2030-02-30T10:00:00Z', '2030-01-31T25:00:00Z', '31/01/2030', ''])(
    'refuses %p',
    (input) => {
      expect(() => parseSchedule(input)).toThrow(InvalidScheduleError);
    },
  );
});
