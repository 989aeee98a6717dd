export { CONFIG_VARIABLES, loadAppConfig, type AppConfig } from './config/app.config';
export { InvalidConfigError, parseConfig, type Requirement } from './config/config.loader';
export { envBool, envHostPortList, envInt, envPort, envUrl } from './config/env.schemas';
export {
  DomainError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  ProviderError,
  ServiceUnavailableError,
  STATUS_BY_KIND,
  UnauthorizedError,
  type ErrorDetails,
  type ErrorKind,
} from './errors/domain.error';
export { toErrorResponse, validationMessage, type ErrorBody, type ErrorResponse } from './errors/error-body';
export { GlobalExceptionFilter } from './errors/exception.filter';
export { ReadinessRegistry, type ReadinessProbe } from './health/readiness.registry';
export { createHttpApp, listen, type RootModule } from './http/http-app.factory';
export { currentCorrelationId, withCorrelationId } from './logging/correlation';
export { createLogger, REDACTED_PATHS, type Logger, type LoggerOptions } from './logging/logger';
export { NestPinoLogger } from './logging/nest-logger';
export { APP_CONFIG, InjectConfig, InjectLogger, LOGGER, PlatformModule } from './platform.module';
export { runService, type ServiceDefinition } from './service/run-service';
export { startTelemetry, type TelemetryHandle } from './telemetry/telemetry';
export { lockDataDir } from './fs/data-dir.lock';
export { IS_PUBLIC, Public } from './auth/public.decorator';
export { ZodPipe } from './http/zod.pipe';
export {
  EgressError,
  type Fetched,
  isPrivateAddress,
  safeFetch,
  type SafeFetchOptions,
} from './egress/safe-fetch';
export { type Backend, standaloneProblems } from './config/service-roles';
export { COMMIT_WITHOUT_FLUSH, openLmdb } from './fs/lmdb';
