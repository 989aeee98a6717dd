export { API_KEY_PREFIX, hashApiKey, keyPrefix, newApiKey } from './api-key';
export { ApiKeyResolver } from './api-key.resolver';
export { GatewayAuthModule } from './auth.module';
export {
  CurrentEndUser,
  type EndUser,
  EndUserAuthenticator,
  EndUserGuard,
  hashUserId,
} from './end-user.guard';
export { CurrentTenant, type Tenant } from './tenant';
export { EndUserRoutes } from './end-user-routes.decorator';
