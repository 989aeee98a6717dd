export { CONFIG_VARIABLES, loadAppConfig, type AppConfig } from './config/app.config';
export { InvalidConfigError, parseConfig, type Requirement } from './config/config.loader';
export { envBool, envHostPortList, envInt, envPort, envUrl } from './config/env.schemas';
export { toErrorResponse, validationMessage, type ErrorBody, type ErrorResponse } from './errors/error-body';
export { GlobalExceptionFilter } from './errors/exception.filter';
export { isTransientError } from './errors/transient';
export { ReadinessRegistry, type ReadinessProbe } from './health/readiness.registry';
export { addressMatcher, clientAddress, proxyTrust, type ProxyTrust } from './http/client-address';
export { createHttpApp, listen, type RootModule } from './http/http-app.factory';
export { currentCorrelationId, withCorrelationId } from './logging/correlation';
export { createLogger, REDACTED_PATHS, type Logger, type LoggerOptions } from './logging/logger';
export { NestPinoLogger } from './logging/nest-logger';
export {
  APP_CONFIG,
  CLOCK,
  InjectClock,
  InjectConfig,
  InjectLogger,
  LOGGER,
  PlatformModule,
} from './platform.module';
export { runService, type ServiceDefinition } from './service/run-service';
export { startTelemetry, type TelemetryHandle } from './telemetry/telemetry';
export { lockDataDir } from './fs/data-dir.lock';
export { keepFilesPrivate } from './fs/private-files';
export { IS_PUBLIC, Public } from './auth/public.decorator';
export { API_KEY_PATTERN, API_KEY_PREFIX } from './auth/api-key-format';
export { ZodPipe } from './http/zod.pipe';
export { KeepRawBody, rawBodyOf } from './http/raw-body';
export { errorBodySchema, openApi } from './http/openapi-schema';
export { isPrivateAddress } from './egress/addresses';
export {
  checkDestinationHost,
  connectGuarded,
  EgressError,
  type EgressPolicy,
  guardedLookup,
} from './egress/guard';
export {
  type ByteBudget,
  type Fetched,
  type Posted,
  safeFetch,
  type SafeFetchOptions,
  safePost,
  type SafePostOptions,
} from './egress/safe-fetch';
export { Semaphore } from './concurrency/semaphore';
export { parseSecretKey, readingKeys, SecretBox, secretKeyId, SecretsError } from './secrets/secret-box';
export { type Backend, standaloneProblems } from './config/service-roles';
export { GroupCommit, type WriteResult } from './fs/group-commit';
export { COMMIT_WITHOUT_FLUSH, lmdbGroupCommit, openLmdb } from './fs/lmdb';
export { closeServer, listenOn, readBoundedBody } from './http/local-server';
export { ThreadLostError, ThreadPool, type ThreadPoolOptions } from './threads/thread-pool';
