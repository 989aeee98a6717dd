import { createLogger, type Logger } from '@notify/platform';

/** Quiet by default; `TEST_LOG_LEVEL=debug npm test` shows what the code under test logs. */
export function testLogger(service = 'test'): Logger {
  return createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', service });
}
