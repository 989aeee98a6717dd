export {
  API_KEY_PREFIX,
  hashApiKey,
  isPublicKeyShaped,
  keyPrefix,
  newApiKey,
  PUBLIC_KEY_PREFIX,
} from './api-key';
export { ApiKeyResolver } from './api-key.resolver';
export { GatewayAuthModule } from './auth.module';
export {
  CurrentEndUser,
  type EndUser,
  EndUserAuthenticator,
  EndUserGuard,
  hashUserId,
} from './end-user.guard';
export { JWKS_REFETCH_INTERVAL_MS, JwksKeySet } from './jwks.key-set';
export { JwtVerifier, type TokenIdentity } from './jwt.verifier';
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
