import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/** The end-user routes: `/{clientId}/users/{userId}[/…]` and `/user/inapp[/unread]`. */
const END_USER_PATH = /^\/(?:[^/?]+\/users\/[^/?]+(?:\/[^?]*)?|user\/inapp(?:\/unread)?\/?)(?:\?.*)?$/;

/**
 * CORS for the browser client's routes only: any origin may call them, as the browser library runs
 * on the customer's own pages, and their credentials are the end user's (no cookies, so `*` is
 * safe). Preflights are answered here, before routing. The server API (secret keys) gets no CORS
 * headers, so a browser page cannot be made to use a secret key.
 */
@Injectable()
export class EndUserCors implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request, reply, done) => {
      if (!END_USER_PATH.test(request.url)) return done();
      void reply.header('access-control-allow-origin', '*');
      if (request.method !== 'OPTIONS') return done();
      void reply
        .header('access-control-allow-methods', 'GET, POST, PATCH, DELETE')
        .header('access-control-allow-headers', 'authorization, content-type')
        .header('access-control-max-age', '600')
        .code(204)
        .send();
    });
  }
}
