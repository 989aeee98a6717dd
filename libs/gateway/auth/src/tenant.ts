import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type ApiKeyType, keyActor, memberActor, type Role, type TenantScope } from '@notify/domain';
import { InvalidRequestError } from '@notify/util';
import type { FastifyRequest } from 'fastify';

/** Who is calling, in which environment: an API key's own, or the one a member named with `?envId=`. */
export interface Tenant extends TenantScope {
  /** The key, or `member:<userId>` for a member. */
  readonly keyId: string;
  /** Sends through a test environment use sandbox providers: nothing leaves the service. */
  readonly test: boolean;
}

/** An API key (or the older SDKs' client id and secret), bound to one environment. */
export interface KeyCaller extends Tenant {
  readonly kind: 'key';
  readonly keyType: ApiKeyType;
}

/** A person signed in with a JWT, acting in one account with the role they hold there. */
export interface MemberCaller {
  readonly kind: 'member';
  readonly accountId: string;
  readonly userId: string;
  readonly email: string;
  readonly role: Role;
}

export type Caller = KeyCaller | MemberCaller;

/** How the caller is named in the account's history: `member:<userId>` or `key:<keyId>`. */
export const callerActor = (caller: Caller): string =>
  caller.kind === 'member' ? memberActor(caller.userId) : keyActor(caller.keyId);

export type AuthenticatedRequest = FastifyRequest & { caller?: Caller; tenant?: Tenant };

/**
 * The environment the request acts in. A key's is its own; a member must name one with
 * `?envId=` (400 MISSING_ENV_ID otherwise).
 */
export const CurrentTenant = createParamDecorator((_data: unknown, context: ExecutionContext): Tenant => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (request.tenant !== undefined) return request.tenant;
  if (request.caller?.kind === 'member') throw missingEnvId();
  throw new Error('CurrentTenant used on a route without authentication');
});

/** The authenticated caller (a key or a member), for account-level operations. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (caller === undefined) throw new Error('CurrentCaller used on a route without authentication');
  return caller;
});

export const missingEnvId = () =>
  new InvalidRequestError({
    code: 'MISSING_ENV_ID',
    message: 'A member signed in with a JWT must name the environment of this operation.',
    fix: 'Add ?envId=<environment (client) id> to the request.',
  });
