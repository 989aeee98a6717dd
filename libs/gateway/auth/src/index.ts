export {
  API_KEY_PREFIX,
  hashApiKey,
  isPublicKeyShaped,
  keyPrefix,
  newApiKey,
  PUBLIC_KEY_PREFIX,
} from './api-key';
export { ApiKeyResolver } from './api-key.resolver';
export { AuthFailureLimiter } from './auth-failure.limiter';
export { GatewayAuthModule } from './auth.module';
export {
  CONSOLE_HEADER,
  CONSOLE_SESSION_COOKIE,
  expiredSessionCookie,
  sessionCookie,
  sessionCookieOf,
} from './console-session-cookie';
export { CONSOLE_SESSION_SECONDS, type ConsoleSession, ConsoleSessionTokens } from './console-session-tokens';
export {
  CurrentEndUser,
  type EndUser,
  EndUserAuthenticator,
  EndUserGuard,
  hashUserId,
} from './end-user.guard';
export { JWKS_REFETCH_INTERVAL_MS, JwksKeySet } from './jwks.key-set';
export { JwtVerifier, type TokenIdentity } from './jwt.verifier';
export { MemberAuthenticator, type MemberContext } from './member.authenticator';
export { Administered, RequiresRole } from './roles.decorator';
export {
  type Caller,
  callerActor,
  CurrentCaller,
  CurrentTenant,
  type KeyCaller,
  type MemberCaller,
  missingEnvId,
  type Tenant,
} from './tenant';
export { EndUserRoutes } from './end-user-routes.decorator';
