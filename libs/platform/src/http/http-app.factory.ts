import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app.config';
import { InvalidRequestError } from '@notify/util';
import { GlobalExceptionFilter, sendError } from '../errors/exception.filter';
import { withCorrelationId } from '../logging/correlation';
import { NestPinoLogger } from '../logging/nest-logger';
import { proxyTrust } from './client-address';
import { installLoadShedding } from './load-shedding';
import { keepRawBody, rawBodyLimit } from './raw-body';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A caller-supplied X-Request-Id is kept (so traces join up across hops); anything else is replaced. */
function requestId(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

function invalidJson(cause: Error): InvalidRequestError {
  return new InvalidRequestError({
    code: 'INVALID_JSON',
    message: `The request body is not valid JSON: ${cause.message}`,
    fix: 'Send a JSON object with Content-Type: application/json.',
  });
}

/** Deeper JSON is refused at the door: nothing legitimate nests this far, and deep values break serializers. */
export const MAX_JSON_DEPTH = 32;

/** The nesting depth of a parsed JSON value, counted without recursion (a hostile body cannot overflow the stack). */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, level]);
  }
  return deepest;
}

function tooDeep(): InvalidRequestError {
  return new InvalidRequestError({
    code: 'INVALID_JSON',
    message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
    fix: 'Flatten the structure (parameters, blocks, metadata) to fewer levels.',
  });
}

/**
 * JSON bodies, with three deliberate differences from Fastify's default: an empty body with a JSON
 * content type is accepted as "no body" (the pingram client sends that header on GET and DELETE),
 * prototype-poisoning keys are rejected, and so is nesting deeper than MAX_JSON_DEPTH. `text/plain`
 * bodies are read the same way: browser clients (the published @notificationapi/core) post JSON
 * as a plain string, which fetch labels text/plain; no route takes plain text. A route with
 * KeepRawBody gets the text unparsed.
 */
function registerJsonParser(fastify: FastifyInstance): void {
  const strict = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'string' },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (keepRawBody(request, text) || text.trim() === '') {
        done(null, undefined);
        return;
      }
      // Fastify's default JSON parser is callback-style; its return value carries nothing.
      void strict(request, text, (error, value) => {
        if (error) done(invalidJson(error), undefined);
        else if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) done(tooDeep(), undefined);
        else done(null, value);
      });
    },
  );
}

/**
 * Form bodies (providers' callbacks: Twilio posts application/x-www-form-urlencoded): a key given
 * more than once keeps every value, in order, as provider signature checks expect.
 */
function registerFormParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      const form: Record<string, string | string[]> = Object.create(null) as Record<
        string,
        string | string[]
      >;
      for (const [key, value] of new URLSearchParams(
        typeof body === 'string' ? body : body.toString('utf8'),
      )) {
        const current = form[key];
        form[key] =
          current === undefined ? value : [...(Array.isArray(current) ? current : [current]), value];
      }
      done(null, form);
    },
  );
}

export type RootModule = Parameters<typeof NestFactory.create>[0];

export async function createHttpApp(
  rootModule: RootModule,
  config: AppConfig,
  logger: Logger,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.http.bodyLimitBytes,
    genReqId: (req: IncomingMessage) => requestId(req.headers['x-request-id']),
    // Which proxies may set the client address (X-Forwarded-For): none unless configured, so a
    // client cannot forge the `ip` the delivery log records (or the address auth limits count).
    trustProxy: proxyTrust(config.http.trustProxy),
    logger: false,
    return503OnClosing: true,
    // GET /logs/{ids} carries up to 25 URL-encoded tracking ids in one path parameter (~1 KB).
    // The browser client addresses identify as `/{clientId}/users/{userId}/` (trailing slash).
    routerOptions: { maxParamLength: 4_096, ignoreTrailingSlash: true },
    // What fails before a route is found (a path that does not decode, a parameter over
    // maxParamLength) gets the error body too; Fastify would answer its own shape. No onRequest
    // hook has run for such a request, so the request id header is set here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('x-request-id', request.id);
      sendError(logger, error, request, reply);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: new NestPinoLogger(logger),
    bufferLogs: false,
    bodyParser: false,
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // Routes are added when the app initializes, after this: a route keeping its raw body gets its own bound.
  fastify.addHook('onRoute', (route) => {
    const limit = rawBodyLimit(route.config);
    if (limit !== undefined) route.bodyLimit = limit;
  });
  registerJsonParser(fastify);
  registerFormParser(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    withCorrelationId(request.id, done);
  });
  installLoadShedding(fastify, config.http.shedding);
  // Nest installs Fastify's error handler and routes body-parsing errors through this filter too.
  app.useGlobalFilters(new GlobalExceptionFilter(logger));
  return app;
}

export async function listen(app: INestApplication, config: AppConfig): Promise<string> {
  await app.listen(config.http.port, config.http.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address !== null ? address.port : config.http.port;
  return `http://${config.http.host === '0.0.0.0' ? '127.0.0.1' : config.http.host}:${port}`;
}
