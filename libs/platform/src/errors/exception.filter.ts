import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { toErrorResponse } from './error-body';

/** Nest's HttpExceptions (unknown route, internal pipes) as the status-bearing shape the mapper reads. */
function unwrap(exception: unknown): unknown {
  if (exception instanceof HttpException) {
    return { statusCode: exception.getStatus(), message: exception.message };
  }
  return exception;
}

/**
 * Writes the error body for anything thrown while serving a request; also Fastify's
 * `frameworkErrors` hook, for what fails before routing (a URL that does not decode).
 */
export function sendError(
  logger: Logger,
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const response = toErrorResponse(unwrap(exception), request.id, randomUUID);
  if (response.internal !== undefined) {
    logger.error(
      {
        err: response.internal.cause,
        errorId: response.internal.errorId,
        method: request.method,
        url: request.url,
      },
      'request failed',
    );
  } else if (response.status >= 500) {
    logger.warn({ code: response.body.error.code, url: request.url }, 'request failed upstream');
  }
  void reply.status(response.status).headers({
    ...response.headers,
    'content-type': 'application/json; charset=utf-8',
  });
  void reply.send(response.body);
}

@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(this.logger, exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}
