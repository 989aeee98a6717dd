import pino, { type Logger } from 'pino';
import { currentCorrelationId } from './correlation';

export type { Logger } from 'pino';

/**
 * Keys whose values never reach a log line: credentials and message bodies (content belongs to the
 * sender's customers). Matched at the top level and one level down.
 */
const SECRET_KEYS = [
  'authorization',
  'apiKey',
  'password',
  'secret',
  'token',
  'accessToken',
  'access_token',
  'refresh_token',
  'privateKey',
  'html',
  'text',
  'body',
  'content',
  'attachments',
  'parameters',
];

export const REDACTED_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  'req.headers.authorization',
  'req.headers.cookie',
];

export interface LoggerOptions {
  level: string;
  pretty?: boolean;
  service: string;
  destination?: pino.DestinationStream;
}

function defaultDestination(pretty: boolean): pino.DestinationStream {
  if (!pretty) return pino.destination({ dest: 1, sync: false });
  return pino.transport({
    target: 'pino-pretty',
    options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' },
  }) as pino.DestinationStream;
}

export function createLogger({ level, service, destination, pretty = false }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => {
        const correlationId = currentCorrelationId();
        return correlationId === undefined ? {} : { correlationId };
      },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? defaultDestination(pretty),
  );
}
