export { type ProvisionedTenant, provisionerFor, ProvisionTenantUseCase } from '@notify/gateway-accounts';
export { API_KEY_PREFIX, hashApiKey, hashUserId, newApiKey } from '@notify/gateway-auth';
export { openApiDocument, serveOpenApi } from '@notify/gateway-openapi';
export { GatewayModule } from './gateway.module';
