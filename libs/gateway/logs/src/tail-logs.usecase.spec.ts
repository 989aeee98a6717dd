import type { LogRecord, TenantScope } from '@notify/domain';
import type { EventLog } from '@notify/event-log';
import type { Tenant } from '@notify/gateway-auth';
import { aScope } from '@notify/testing';
import { TAIL_SIZE, TailLogsUseCase } from './tail-logs.usecase';

describe('TailLogsUseCase', () => {
  const tenant: Tenant = { ...aScope(), keyId: 'key-1', test: false };

  it("answers the event log's latest records of the caller's environment, at most 100", async () => {
    const asked: [TenantScope, number][] = [];
    const records = [{ trackingId: 't2' }, { trackingId: 't1' }] as LogRecord[];
    const log = {
      latestRecords: async (scope: TenantScope, limit: number) => {
        asked.push([scope, limit]);
        return records;
      },
    };
    const useCase = new TailLogsUseCase(log as unknown as EventLog);
    expect(await useCase.execute(tenant)).toEqual({ logs: records });
    expect(asked).toEqual([[tenant, TAIL_SIZE]]);
    expect(TAIL_SIZE).toBe(100);
  });
});
