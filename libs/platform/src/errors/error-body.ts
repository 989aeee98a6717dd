import { z } from 'zod';
import { DomainError, RateLimitedError, ServiceUnavailableError, STATUS_BY_KIND } from '@notify/util';
import { isTransientError } from './transient';

/** The body every failed request answers with: its trackingId and the error's machine code and message. */
export interface ErrorBody {
  trackingId: string;
  error: { code: string; message: string; fix?: string; provider?: string; providerCode?: string };
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  /** Response headers the error calls for (Retry-After on 429). */
  headers?: Record<string, string>;
  /** Set for 5xx: the id under which the internal error was logged. */
  internal?: { errorId: string; cause: unknown };
}

/** Fastify's own errors (body parsing, size limits, routing) carry a status and an FST_ code. */
interface TransportError {
  statusCode: number;
  code?: string;
  message: string;
}

function isTransportError(error: unknown): error is TransportError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as TransportError).statusCode === 'number' &&
    typeof (error as TransportError).message === 'string'
  );
}

const TRANSPORT_ERRORS: Record<string, { code: string; message: string; fix: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is larger than the service accepts.',
    fix: 'Send large attachments by URL instead of inline base64 content.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'The request body must be JSON.',
    fix: 'Set Content-Type: application/json.',
  },
  // Fastify's own messages echo the whole path back; these name the problem instead.
  FST_ERR_BAD_URL: {
    code: 'INVALID_URL',
    message: 'The request path is not a valid URL: a percent-encoded part does not decode to UTF-8 text.',
    fix: 'Percent-encode path segments from UTF-8 text (encodeURIComponent).',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    code: 'URI_TOO_LONG',
    message: 'A path parameter is longer than the service accepts.',
    fix: 'Shorten the identifier; ask for many records with the POST variant of the route (such as POST /logs/bulk).',
  },
};

const GENERIC_BY_STATUS: Record<number, { code: string; message: string; fix?: string }> = {
  400: { code: 'INVALID_REQUEST', message: 'The request is invalid.' },
  401: {
    code: 'UNAUTHORIZED',
    message: 'Missing or invalid credentials.',
    fix: 'Send Authorization: Bearer <API key> with a key of this environment.',
  },
  404: { code: 'NOT_FOUND', message: 'No such resource.' },
  405: { code: 'METHOD_NOT_ALLOWED', message: 'This method is not allowed on this path.' },
  413: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be JSON.' },
  429: { code: 'RATE_LIMITED', message: 'Too many requests.', fix: 'Retry after a short pause.' },
};

export function validationMessage(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Maps anything thrown while serving a request to the status and body the client sees. */
export function toErrorResponse(error: unknown, trackingId: string, newErrorId: () => string): ErrorResponse {
  if (error instanceof DomainError) {
    const { code, message, fix, provider, providerCode } = error;
    return {
      status: STATUS_BY_KIND[error.kind],
      body: { trackingId, error: dropUndefined({ code, message, fix, provider, providerCode }) },
      ...((error instanceof RateLimitedError || error instanceof ServiceUnavailableError) &&
      error.retryAfterSeconds !== undefined
        ? { headers: { 'retry-after': String(error.retryAfterSeconds) } }
        : {}),
    };
  }
  if (error instanceof z.ZodError) {
    return {
      status: 400,
      body: {
        trackingId,
        error: {
          code: 'VALIDATION_ERROR',
          message: validationMessage(error),
          fix: 'Correct the listed fields; field names and enum values are case-sensitive.',
        },
      },
    };
  }
  if (isTransportError(error) && error.statusCode >= 400 && error.statusCode < 500) {
    const known = error.code !== undefined ? TRANSPORT_ERRORS[error.code] : undefined;
    const generic = GENERIC_BY_STATUS[error.statusCode] ?? {
      code: 'INVALID_REQUEST',
      message: error.message,
    };
    const body = known ?? { ...generic, message: error.message.length > 0 ? error.message : generic.message };
    return { status: error.statusCode, body: { trackingId, error: dropUndefined(body) } };
  }
  if (isTransientError(error)) {
    return {
      status: 503,
      body: {
        trackingId,
        error: {
          code: 'BACKEND_UNAVAILABLE',
          message: 'A backend the request needs is unavailable right now; nothing was done.',
          fix: 'Retry the request in a few seconds.',
        },
      },
      headers: { 'retry-after': '5' },
    };
  }
  const errorId = newErrorId();
  return {
    status: 500,
    body: {
      trackingId,
      error: {
        code: 'INTERNAL_ERROR',
        message: `Internal error ${errorId}.`,
        fix: 'Retry the request; if it keeps failing, report the error id to the operator.',
      },
    },
    internal: { errorId, cause: error },
  };
}

function dropUndefined<T extends Record<string, string | undefined>>(record: T): ErrorBody['error'] {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as ErrorBody['error'];
}
