import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/** The route config key asking for the exact body text, and the largest body (bytes) the route takes. */
export const RAW_BODY_LIMIT = 'notifyRawBodyLimit';

const rawBodies = new WeakMap<FastifyRequest, string>();

/**
 * Keeps the exact text of this route's JSON body beside the parsed one (a signature over the
 * bytes, such as Stripe's, can only be checked on them), and bounds the body to `limitBytes`
 * (413 beyond). Other routes keep only the parsed body.
 */
export const KeepRawBody = (limitBytes: number) => RouteConfig({ [RAW_BODY_LIMIT]: limitBytes });

/** The route's config value, when it keeps its raw body. */
export function rawBodyLimit(config: unknown): number | undefined {
  const limit = (config as Record<string, unknown> | undefined)?.[RAW_BODY_LIMIT];
  return typeof limit === 'number' ? limit : undefined;
}

/** Called by the JSON parser for a route with KeepRawBody. */
export function keepRawBody(request: FastifyRequest, text: string): void {
  if (rawBodyLimit(request.routeOptions.config) !== undefined) rawBodies.set(request, text);
}

/** The exact body text of a request to a route with KeepRawBody; undefined when it had none. */
export const rawBodyOf = (request: FastifyRequest): string | undefined => rawBodies.get(request);
