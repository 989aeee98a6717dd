import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { NotFoundError, UnauthorizedError } from '@notify/util';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The operator routes are the service operator's, not a tenant's: they take `Authorization: Bearer
 * <OPERATOR_TOKEN>`, compared in constant time (both sides hashed, so neither the content nor the
 * length of the token leaks through timing). Without OPERATOR_TOKEN they answer 404, as a route that
 * does not exist; with it, a missing or wrong token is 401. Tenants' keys and JWTs open nothing here.
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  private readonly token: Buffer | undefined;

  constructor(@InjectConfig() config: AppConfig) {
    const token = config.identity.operatorToken;
    this.token = token === undefined ? undefined : digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.token === undefined)
      throw new NotFoundError({ code: 'NOT_FOUND', message: 'No such resource.' });
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const [scheme, given] = header.trim().split(/\s+/, 2);
    if (
      scheme?.toLowerCase() === 'bearer' &&
      given !== undefined &&
      timingSafeEqual(digest(given), this.token)
    )
      return true;
    throw new UnauthorizedError({
      code: 'UNAUTHORIZED',
      message: 'Missing or wrong operator token.',
      fix: "Send Authorization: Bearer <OPERATOR_TOKEN> (the service operator's token, not an API key).",
    });
  }
}
