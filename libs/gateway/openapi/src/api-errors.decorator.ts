import { applyDecorators } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { z } from 'zod';
import { errorBodySchema, openApi } from '@notify/platform';
import { API_KEY_SCHEME, END_USER_SCHEME, JWT_SCHEME } from './security-schemes';

const body = openApi(errorBodySchema);

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (the error code and message say what is wrong)',
  401: 'Missing or invalid credentials',
  403: "The caller's role (or key type) does not allow this operation",
  402: 'Usage limit exceeded',
  404: 'No such resource in this environment',
  409: 'The request contradicts an earlier one (an Idempotency-Key reused for another request)',
  429: 'Too many requests (see Retry-After)',
  500: 'Internal error (the message carries an error id)',
  503: 'A backend is unavailable, or the service is overloaded; nothing was done, retry',
};

/** Statuses every authenticated operation may answer with, whatever it does. */
const ALWAYS = [400, 401, 403, 429, 500, 503];

const errorResponses = (statuses: readonly number[]) =>
  [...new Set([...ALWAYS, ...statuses])]
    .sort((a, b) => a - b)
    .map((status) => ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', schema: body }));

/**
 * Server-API operations (on a controller): an API key or a member's JWT, the `envId` / `accountId`
 * query parameters that say where a member acts, and the spec's error body on each failure status.
 */
export function ApiErrors(...statuses: number[]): ClassDecorator {
  return applyDecorators(
    ApiBearerAuth(API_KEY_SCHEME),
    ApiBearerAuth(JWT_SCHEME),
    ApiQuery({
      name: 'envId',
      required: false,
      schema: { type: 'string', maxLength: 200 },
      description:
        "The environment (client id) to act in. A member's JWT must name it on environment-scoped operations (400 MISSING_ENV_ID otherwise); with an API key it may only name the key's own environment (404 otherwise).",
    }),
    ApiQuery({
      name: 'accountId',
      required: false,
      schema: { type: 'string', maxLength: 200 },
      description:
        "With a member's JWT and no envId: the account to act in (default: the member's first account). With an API key it may only name the key's own account (404 otherwise).",
    }),
    ...errorResponses([...statuses, 404]),
  );
}

/** Browser-client operations: Basic clientId:userId:hashedUserId, same error body. */
export function ApiEndUserErrors(...statuses: number[]): ClassDecorator {
  return applyDecorators(ApiBasicAuth(END_USER_SCHEME), ...errorResponses(statuses));
}

/** Failure statuses one operation may answer with beyond its controller's. */
export function ApiMoreErrors(...statuses: number[]): MethodDecorator {
  return applyDecorators(...errorResponses(statuses));
}

/** A path parameter documented with the schema that validates it. */
export function ApiPathParam(
  name: string,
  schema: z.ZodType,
  description?: string,
): MethodDecorator & ClassDecorator {
  return ApiParam({
    name,
    required: true,
    schema: openApi(schema) as never,
    ...(description ? { description } : {}),
  });
}
