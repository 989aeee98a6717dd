import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/** The route config key asking for the exact body text, and the largest body (bytes) the route takes. */
export const RAW_BODY_LIMIT = 'notifyRawBodyLimit';

const rawBodies = new WeakMap<FastifyRequest, string>();

/**
 * Keeps the exact text of this route's JSON body instead of parsing it (a signature over the
 * bytes, such as Stripe's, can only be checked on them, and the service's strict parser must not
 * refuse a genuine delivery before that: the route reads the text once it is verified), and
 * bounds the body to `limitBytes` (413 beyond). Other routes get only the parsed body.
 */
export const KeepRawBody = (limitBytes: number) => RouteConfig({ [RAW_BODY_LIMIT]: limitBytes });

/** The route's config value, when it keeps its raw body. */
export function rawBodyLimit(config: unknown): number | undefined {
  const limit = (config as Record<string, unknown> | undefined)?.[RAW_BODY_LIMIT];
  return typeof limit === 'number' ? limit : undefined;
}

/** Called by the JSON parser: true when the route keeps its raw body (kept now; not to be parsed). */
export function keepRawBody(request: FastifyRequest, text: string): boolean {
  if (rawBodyLimit(request.routeOptions.config) === undefined) return false;
  rawBodies.set(request, text);
  return true;
}

/** The exact body text of a request to a route with KeepRawBody; undefined when it had none. */
export const rawBodyOf = (request: FastifyRequest): string | undefined => rawBodies.get(request);
