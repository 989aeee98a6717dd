/**
 * Errors the domain raises on purpose. Each carries the spec's machine code, a human message and an
 * actionable fix; the exception filter turns them into `{trackingId, error: {code, message, fix}}`.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'payment_required'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'upgrade_required'
  | 'provider'
  | 'unavailable';

export interface ErrorDetails {
  readonly code: string;
  readonly message: string;
  readonly fix?: string;
  readonly provider?: string;
  readonly providerCode?: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  readonly code: string;
  readonly fix: string | undefined;
  readonly provider: string | undefined;
  readonly providerCode: string | undefined;

  constructor(details: ErrorDetails) {
    super(details.message);
    this.name = new.target.name;
    this.code = details.code;
    this.fix = details.fix;
    this.provider = details.provider;
    this.providerCode = details.providerCode;
  }
}

export class InvalidRequestError extends DomainError {
  readonly kind = 'invalid';
}
export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized';
}
/** The caller is known but its role does not allow the operation (403 FORBIDDEN). */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}
export class PaymentRequiredError extends DomainError {
  readonly kind = 'payment_required';
}
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
}
/** The request contradicts an earlier one (409), e.g. an idempotency key reused for another body. */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}
export class PayloadTooLargeError extends DomainError {
  readonly kind = 'too_large';
}
export class ProviderError extends DomainError {
  readonly kind = 'provider';
}
/** The path speaks another protocol (426): a WebSocket endpoint reached without an upgrade. */
export class UpgradeRequiredError extends DomainError {
  readonly kind = 'upgrade_required';
}
/** Too many requests of some kind from one caller (429); the response says when to retry. */
export class RateLimitedError extends DomainError {
  readonly kind = 'rate_limited';

  constructor(
    details: ErrorDetails,
    /** Whole seconds until a retry can succeed (the Retry-After header). */
    readonly retryAfterSeconds: number,
  ) {
    super(details);
  }
}

/** A backend the request needs is down; the caller may retry (503). */
export class ServiceUnavailableError extends DomainError {
  readonly kind = 'unavailable';

  constructor(
    details: ErrorDetails,
    /** Whole seconds after which a retry may succeed (the Retry-After header), when known. */
    readonly retryAfterSeconds?: number,
  ) {
    super(details);
  }
}

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  payment_required: 402,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  upgrade_required: 426,
  provider: 502,
  unavailable: 503,
};
