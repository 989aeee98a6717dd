export { type ProvisionedTenant, ProvisionTenantUseCase } from './accounts/provision-tenant.usecase';
export { API_KEY_PREFIX, hashApiKey, newApiKey } from './auth/api-key';
export { hashUserId } from './auth/end-user.guard';
export { GatewayModule } from './gateway.module';
export { openApiDocument, serveOpenApi } from './openapi/openapi.document';
