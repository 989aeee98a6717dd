import { eventually } from '@notify/testing';
import type { LogsGetResponseLogsInner, Pingram } from 'pingram';

export type Log = LogsGetResponseLogsInner & Record<string, unknown>;

/** The log record of `trackingId`, read through `client`, once `ready` holds for it (polled). */
export function awaitLog(
  client: Pingram,
  trackingId: string,
  ready: (log: Log) => boolean,
  timeoutMs = 30_000,
): Promise<Log> {
  return eventually(async () => {
    const { logs } = await client.logs.getLogsByTrackingIds(trackingId).catch(() => ({ logs: [] }));
    const log = logs[0] as Log | undefined;
    if (log === undefined || !ready(log))
      throw new Error(`log of ${trackingId} not ready: ${JSON.stringify(log)}`);
    return log;
  }, timeoutMs);
}
