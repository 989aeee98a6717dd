import { attemptOutcome, attemptSucceeded, endpointBody, EVENT_GROUPS, toggleEvent } from './endpoints';

describe('EVENT_GROUPS', () => {
  it('puts each event type under its channel once, web push apart from mobile push', () => {
    const byLabel = Object.fromEntries(EVENT_GROUPS.map((g) => [g.label, g.events]));
    expect(byLabel['Mobile push']).toEqual(['PUSH_FAILED', 'PUSH_UNSUBSCRIBE']);
    expect(byLabel['Web push']).toEqual(['WEB_PUSH_FAILED', 'WEB_PUSH_UNSUBSCRIBE']);
    expect(byLabel['In-app']).toEqual(['INAPP_WEB_FAILED', 'INAPP_WEB_UNSUBSCRIBE']);
    const all = EVENT_GROUPS.flatMap((g) => g.events);
    expect(all).toHaveLength(21);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('endpointBody', () => {
  it('trims the URL and lists the chosen types in the console order', () => {
    expect(
      endpointBody({ webhook: ' https://hooks.example.com/n ', events: ['SMS_FAILED', 'EMAIL_OPEN'] }),
    ).toEqual({
      ok: true,
      body: { webhook: 'https://hooks.example.com/n', events: ['EMAIL_OPEN', 'SMS_FAILED'] },
    });
  });

  it.each([
    ['hooks.example.com', 'Enter the full URL'],
    ['ftp://hooks.example.com', 'must start with https://'],
  ])('refuses %s', (webhook, problem) => {
    const check = endpointBody({ webhook, events: ['SMS_FAILED'] });
    expect(check.ok ? '' : check.problem).toContain(problem);
  });

  it('needs an event type', () => {
    expect(endpointBody({ webhook: 'http://127.0.0.1:9/x', events: [] })).toEqual({
      ok: false,
      problem: 'Choose at least one event type.',
    });
  });
});

describe('toggleEvent', () => {
  it('adds a type once and removes it', () => {
    const draft = { webhook: '', events: ['SMS_FAILED' as const] };
    expect(toggleEvent(draft, 'SMS_FAILED', true).events).toEqual(['SMS_FAILED']);
    expect(toggleEvent(draft, 'EMAIL_OPEN', true).events).toEqual(['SMS_FAILED', 'EMAIL_OPEN']);
    expect(toggleEvent(draft, 'SMS_FAILED', false).events).toEqual([]);
  });
});

describe('attempt outcome', () => {
  const at = { at: '2026-01-01T00:00:00.000Z', body: '', durationMs: 3 };
  it('is the status code, else the error', () => {
    expect(attemptOutcome({ ...at, statusCode: 503 })).toBe('503');
    expect(attemptOutcome({ ...at, error: 'timed out' })).toBe('timed out');
    expect(attemptOutcome(at)).toBe('no answer');
  });
  it('succeeds on 2xx only', () => {
    expect(attemptSucceeded({ ...at, statusCode: 204 })).toBe(true);
    expect(attemptSucceeded({ ...at, statusCode: 302 })).toBe(false);
    expect(attemptSucceeded({ ...at, error: 'refused' })).toBe(false);
  });
});
