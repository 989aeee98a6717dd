import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyResolver } from './api-key.resolver';
import { AuthFailureLimiter } from './auth-failure.limiter';
import { EndUserCors } from './end-user-cors';
import { EndUserAuthenticator, EndUserGuard } from './end-user.guard';

/**
 * API-key authentication on every route not marked @Public(), and the end-user (browser) guard
 * and CORS.
 */
@Module({
  providers: [
    ApiKeyResolver,
    AuthFailureLimiter,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    EndUserAuthenticator,
    EndUserGuard,
    EndUserCors,
  ],
  exports: [ApiKeyResolver, AuthFailureLimiter, EndUserAuthenticator, EndUserGuard],
})
export class GatewayAuthModule {}
