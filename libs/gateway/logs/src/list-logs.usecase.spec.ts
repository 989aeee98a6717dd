import type { TenantScope } from '@notify/domain';
import type { EventLog, EventPosition, LoggedEvent } from '@notify/event-log';
import type { Tenant } from '@notify/gateway-auth';
import { aScope } from '@notify/testing';
import { InvalidRequestError } from '@notify/util';
import { createHash } from 'node:crypto';
import { ListLogsUseCase, listLogsQuerySchema } from './list-logs.usecase';

const T = Date.UTC(2026, 10, 26, 10, 0, 0);

/** The event log's listing over an in-memory array: its order, its scope, its `before`. */
class FakeEventLog {
  readonly stored: (LoggedEvent & TenantScope)[] = [];
  readonly asked: { limit: number; before?: EventPosition }[] = [];

  async events(scope: TenantScope, page: { limit: number; before?: EventPosition }): Promise<LoggedEvent[]> {
    this.asked.push(page);
    const newerFirst = (a: EventPosition, b: EventPosition) =>
      b.time - a.time || (b.eventId < a.eventId ? -1 : b.eventId > a.eventId ? 1 : 0);
    return this.stored
      .filter((e) => e.accountId === scope.accountId && e.envId === scope.envId)
      .filter((e) => page.before === undefined || newerFirst(page.before, e) < 0)
      .sort(newerFirst)
      .slice(0, page.limit)
      .map(({ accountId: _a, envId: _e, ...event }) => event);
  }
}

describe('ListLogsUseCase', () => {
  const tenant: Tenant = { ...aScope(), keyId: 'key-1', test: false };
  let log: FakeEventLog;
  let useCase: ListLogsUseCase;
  const store = (eventId: string, time: number, scope: TenantScope = tenant, event = 'email_sent') =>
    log.stored.push({ ...scope, eventId, trackingId: `t-${eventId}`, time, event, fields: {} });
  const query = (raw: Record<string, string> = {}) => listLogsQuerySchema.parse(raw);

  beforeEach(() => {
    log = new FakeEventLog();
    useCase = new ListLogsUseCase(log as unknown as EventLog);
  });

  it('pages through events that share a millisecond, each once, newest first', async () => {
    for (const id of ['e3', 'e1', 'e5', 'e2']) store(id, T);
    store('e0', T - 1);
    store('e9', T + 1, { ...tenant, envId: 'another-env' });
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: number[] = [];
    do {
      const page = await useCase.execute(tenant, query({ limit: '2', ...(cursor ? { cursor } : {}) }));
      pages.push(page.messages.length);
      seen.push(...page.messages.map((m) => m.trackingId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(['t-e5', 't-e3', 't-e2', 't-e1', 't-e0']);
    expect(pages).toEqual([2, 2, 1]);
    expect(log.asked.map((a) => a.limit)).toEqual([3, 3, 3]);
  });

  it('answers no cursor when the page holds the last events, and an empty page for an empty log', async () => {
    store('e1', T);
    store('e2', T + 1);
    expect((await useCase.execute(tenant, query({ limit: '2' }))).nextCursor).toBeUndefined();
    expect(await useCase.execute({ ...tenant, envId: 'empty' }, query())).toEqual({ messages: [] });
  });

  it('lists each event by its name and time', async () => {
    store('e1', T, tenant, 'email_inbound');
    expect((await useCase.execute(tenant, query())).messages).toEqual([
      { trackingId: 't-e1', eventType: 'email_inbound', timestamp: '2026-11-26T10:00:00.000Z', epochMs: T },
    ]);
  });

  it('refuses a cursor that is malformed, edited or from another environment with 400, asking nothing', async () => {
    for (const id of ['e1', 'e2', 'e3']) store(id, T);
    const { nextCursor } = await useCase.execute(tenant, query({ limit: '1' }));
    expect(nextCursor).toEqual(expect.any(String));
    const cursor = nextCursor ?? '';
    const [payload = '', digest = ''] = cursor.split('.');
    const edited = Buffer.from(JSON.stringify([T, 'e9'])).toString('base64url');
    const bad = [
      'not-a-cursor',
      `${payload}.${digest}.x`,
      `${edited}.${digest}`,
      `${payload}.${digest.slice(1)}`,
      `%%%.${digest}`,
    ];
    log.asked.length = 0;
    for (const given of bad) {
      const answer = useCase.execute(tenant, query({ cursor: given }));
      await expect(answer).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(answer).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    }
    await expect(
      useCase.execute({ ...tenant, envId: 'another-env' }, query({ cursor })),
    ).rejects.toMatchObject({
      code: 'INVALID_CURSOR',
    });
    expect(log.asked).toEqual([]);
    expect((await useCase.execute(tenant, query({ cursor }))).messages.map((m) => m.trackingId)).toEqual([
      't-e2',
      't-e1',
    ]);
  });

  it('refuses a forged cursor whose time is past what the event log can hold, asking nothing', async () => {
    // The digest is no secret: anyone can seal a payload of their own for their environment.
    const forge = (time: number) => {
      const payload = Buffer.from(JSON.stringify([time, 'e1'])).toString('base64url');
      const digest = createHash('sha256')
        .update(`${tenant.accountId}\0${tenant.envId}\0${payload}`)
        .digest('base64url')
        .slice(0, 22);
      return `${payload}.${digest}`;
    };
    store('e1', T);
    const lastHeld = Date.UTC(2299, 11, 31, 23, 59, 59, 999);
    for (const time of [lastHeld + 1, 8.64e15]) {
      await expect(useCase.execute(tenant, query({ cursor: forge(time) }))).rejects.toMatchObject({
        code: 'INVALID_CURSOR',
      });
    }
    expect(log.asked).toEqual([]);
    expect((await useCase.execute(tenant, query({ cursor: forge(lastHeld) }))).messages).toHaveLength(1);
  });

  it('takes 50 events a page unless asked, at most 100, a positive whole number', () => {
    expect(query().limit).toBe(50);
    expect(query({ limit: '100' }).limit).toBe(100);
    for (const limit of ['0', '101', '-1', '1.5', 'ten', ''])
      expect(listLogsQuerySchema.safeParse({ limit }).success).toBe(false);
    expect(listLogsQuerySchema.safeParse({ cursor: 'x'.repeat(1_001) }).success).toBe(false);
  });
});
