import { requireBackend, testBackends, uniqueName } from '@notify/testing';
import type { ClickHouseEventLogOptions } from '../clickhouse/clickhouse.event-log';

/** The contract suites run against both: the embedded engine (the all-in-one) and a ClickHouse server (a cluster). */
export const CLICKHOUSE_TARGETS = ['embedded', 'server'] as const;
export type ClickHouseTarget = (typeof CLICKHOUSE_TARGETS)[number];

/** Long enough that no event of a suite expires while it runs. */
export const TEST_RETENTION_DAYS = 3_650;

/**
 * Where a suite's event log lives: a database of its own on the server (which must be up; the
 * suite fails, never skips), or the embedded engine in `dir`.
 */
export async function clickHouseTargetOptions(
  target: ClickHouseTarget,
  dir: string,
): Promise<ClickHouseEventLogOptions> {
  if (target === 'embedded')
    return { database: 'notify_test', path: dir, retentionDays: TEST_RETENTION_DAYS };
  await requireBackend('clickhouse');
  return {
    database: uniqueName('ct').replace(/-/g, '_'),
    url: testBackends.clickhouseUrl,
    retentionDays: TEST_RETENTION_DAYS,
  };
}
