import type { LogRecord, TenantScope } from '@notify/domain';
import { type EventLog, type LoggedEvent, MAX_QUERY_RESULTS } from '@notify/event-log';
import type { Tenant } from '@notify/gateway-auth';
import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { LogEventsUseCase } from './log-events.usecase';

const T = Date.UTC(2026, 10, 26, 10, 0, 0);

/** One send's events and records over in-memory arrays, with the scope each belongs to. */
class FakeEventLog {
  readonly stored: (LoggedEvent & TenantScope)[] = [];
  readonly records_: LogRecord[] = [];
  readonly limits: number[] = [];

  async eventsOf(scope: TenantScope, trackingId: string, limit: number): Promise<LoggedEvent[]> {
    this.limits.push(limit);
    return this.stored
      .filter(
        (e) => e.accountId === scope.accountId && e.envId === scope.envId && e.trackingId === trackingId,
      )
      .slice(0, limit)
      .map(({ accountId: _a, envId: _e, ...event }) => event);
  }

  async records(scope: TenantScope, ids: readonly string[]): Promise<LogRecord[]> {
    return this.records_.filter(
      (r) => r.accountId === scope.accountId && r.envId === scope.envId && ids.includes(r.trackingId),
    );
  }
}

describe('LogEventsUseCase', () => {
  const tenant: Tenant = { ...aScope(), keyId: 'key-1', test: false };
  let log: FakeEventLog;
  let useCase: LogEventsUseCase;

  beforeEach(() => {
    log = new FakeEventLog();
    useCase = new LogEventsUseCase(log as unknown as EventLog);
  });

  it("answers the send's events in the log's order, each with its time as ISO and epoch ms, at most 1,000", async () => {
    log.stored.push(
      {
        ...tenant,
        trackingId: 't1',
        eventId: 'e1',
        time: T,
        event: 'request_received',
        fields: { request: '{"type":"welcome"}', type: 'welcome' },
      },
      { ...tenant, trackingId: 't1', eventId: 'e2', time: T + 7, event: 'email_sent', fields: {} },
      { ...tenant, trackingId: 't2', eventId: 'e3', time: T + 8, event: 'sms_sent', fields: {} },
    );
    expect(await useCase.execute(tenant, 't1')).toEqual({
      events: [
        {
          eventId: 'e1',
          event: 'request_received',
          timestamp: '2026-11-26T10:00:00.000Z',
          epochMs: T,
          fields: { request: '{"type":"welcome"}', type: 'welcome' },
        },
        {
          eventId: 'e2',
          event: 'email_sent',
          timestamp: '2026-11-26T10:00:00.007Z',
          epochMs: T + 7,
          fields: {},
        },
      ],
    });
    expect(log.limits).toEqual([MAX_QUERY_RESULTS]);
    expect(MAX_QUERY_RESULTS).toBe(1_000);
  });

  it('is 404 for an id of another environment or account, and for one the log does not know', async () => {
    log.stored.push({ ...tenant, trackingId: 't1', eventId: 'e1', time: T, event: 'email_sent', fields: {} });
    for (const [scope, id] of [
      [{ ...tenant, envId: 'another-env' }, 't1'],
      [{ ...tenant, accountId: 'another-account' }, 't1'],
      [tenant, 'unknown'],
    ] as const) {
      const answer = useCase.execute(scope, id);
      await expect(answer).rejects.toBeInstanceOf(NotFoundError);
      await expect(answer).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('answers an empty timeline for a record whose events have expired', async () => {
    log.records_.push({ trackingId: 'kept', accountId: tenant.accountId, envId: tenant.envId } as LogRecord);
    expect(await useCase.execute(tenant, 'kept')).toEqual({ events: [] });
  });
});
