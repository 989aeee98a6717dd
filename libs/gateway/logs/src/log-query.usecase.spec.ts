import { EmbeddedCoordinationStore, LogQueriesStore } from '@notify/cache';
import type { LogRecord } from '@notify/domain';
import type { EventLog, LogQuery } from '@notify/event-log';
import type { Tenant } from '@notify/gateway-auth';
import { loadAppConfig } from '@notify/platform';
import { aScope, eventually, tempDir, testLogger } from '@notify/testing';
import { RateLimitedError } from '@notify/util';
import { LogQueryUseCase, logQuerySchema } from './log-query.usecase';

/** The event log as a log query uses it: each query is recorded and waits until it is released. */
class FakeEventLog {
  readonly queries: LogQuery[] = [];
  private readonly pending: (() => void)[] = [];
  records: LogRecord[] = [];
  failing = false;

  async query(query: LogQuery): Promise<LogRecord[]> {
    this.queries.push(query);
    await new Promise<void>((resolve) => this.pending.push(resolve));
    if (this.failing) throw new Error('event log down');
    return this.records;
  }

  /** Lets every waiting query answer. */
  release(): void {
    for (const resolve of this.pending.splice(0)) resolve();
  }
}

describe('LogQueryUseCase', () => {
  const tenant: Tenant = { ...aScope(), keyId: 'key-1', test: false };
  let dir: { path: string; remove: () => Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let log: FakeEventLog;
  let queries: Pick<LogQueryUseCase, 'start' | 'result'>;
  let started: [Tenant, string][];
  const body = (fields: Record<string, unknown> = {}) =>
    logQuerySchema.parse({ dateRangeFilter: [1_700_000_000, 1_700_000_060], ...fields });

  beforeEach(async () => {
    dir = await tempDir('notify-log-query-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    log = new FakeEventLog();
    started = [];
    const useCase = new LogQueryUseCase(
      log as unknown as EventLog,
      new LogQueriesStore(coordination),
      testLogger(),
      loadAppConfig({ LOG_QUERIES_PER_ENVIRONMENT: '2' }),
    );
    queries = {
      start: async (scope, query) => {
        const id = await useCase.start(scope, query);
        started.push([scope, id]);
        return id;
      },
      result: (scope, id) => useCase.result(scope, id),
    };
  });

  afterEach(async () => {
    // Queries still running write their result when they end: the store stays open until they have.
    log.release();
    await eventually(async () => {
      for (const [scope, id] of started)
        expect((await queries.result(scope, id))?.status).not.toBe('running');
    });
    await coordination.close();
    await dir.remove();
  });

  it('answers running at once, then the records, over its own environment and the range in milliseconds', async () => {
    log.records = [{ trackingId: 't1' } as unknown as LogRecord];
    const id = await queries.start(
      tenant,
      body({ statusFilter: 'OPENED', channelFilter: 'EMAIL', userFilter: 'ann' }),
    );
    expect(await queries.result(tenant, id)).toEqual({ status: 'running', logs: [] });
    await eventually(() => expect(log.queries).toHaveLength(1));
    log.release();
    await eventually(async () =>
      expect(await queries.result(tenant, id)).toEqual({
        status: 'complete',
        logs: [{ trackingId: 't1' }],
        message: '1 log records',
      }),
    );
    expect(log.queries[0]).toMatchObject({
      accountId: tenant.accountId,
      envIds: [tenant.envId],
      from: 1_700_000_000_000,
      to: 1_700_000_061_000,
      userIds: ['ann'],
      channels: ['email'],
      anyFieldSet: ['email_opened_at'],
    });
    expect(await queries.result({ ...tenant, envId: 'env-2' }, id)).toBeUndefined();
  });

  it('searches no environment when the filter names only others', async () => {
    await queries.start(tenant, body({ envIdFilter: ['env-2'] }));
    await eventually(() => expect(log.queries[0]?.envIds).toEqual([]));
  });

  it('refuses a query past LOG_QUERIES_PER_ENVIRONMENT running ones with 429, until one ends', async () => {
    await queries.start(tenant, body());
    await queries.start(tenant, body());
    const third = queries.start(tenant, body());
    await expect(third).rejects.toBeInstanceOf(RateLimitedError);
    await expect(third).rejects.toMatchObject({ code: 'TOO_MANY_LOG_QUERIES' });
    await eventually(() => expect(log.queries).toHaveLength(2));
    log.release();
    await eventually(async () => expect(await queries.start(tenant, body())).toEqual(expect.any(String)));
  });

  it('answers failed with an error to show when the event log fails', async () => {
    log.failing = true;
    const id = await queries.start(tenant, body());
    await eventually(() => expect(log.queries).toHaveLength(1));
    log.release();
    await eventually(async () =>
      expect(await queries.result(tenant, id)).toEqual({
        status: 'failed',
        logs: [],
        error: 'The query failed; retry it or narrow the date range.',
      }),
    );
  });
});
