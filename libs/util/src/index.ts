// Plain TypeScript shared by every layer, the domain included: nothing here loads NestJS or does I/O.
export {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  ProviderError,
  RateLimitedError,
  ServiceUnavailableError,
  STATUS_BY_KIND,
  UnauthorizedError,
  UpgradeRequiredError,
  type ErrorDetails,
  type ErrorKind,
} from './errors/domain.error';
export { LruCache, type LruOptions } from './cache/lru-cache';
export { eachConcurrently } from './concurrency/each-concurrently';
export { withTimeout } from './concurrency/with-timeout';
export { domainName, type DomainNameRule } from './dns/domain-name';
export { maskSecret } from './secrets/mask-secret';
export { namedSchema } from './schema/named-schema';
export { type Clock, systemClock } from './time/clock';
export { decodeJwt, type DecodedJwt, type JwtAlgorithm, nowSeconds, verifyJwt } from './jwt/jwt';
