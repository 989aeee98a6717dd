import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyResolver } from './api-key.resolver';
import { AuthFailureLimiter } from './auth-failure.limiter';
import { AuthGuard } from './auth.guard';
import { ConsoleSessionTokens } from './console-session-tokens';
import { EndUserCors } from './end-user-cors';
import { EndUserAuthenticator, EndUserGuard } from './end-user.guard';
import { JwksKeySet } from './jwks.key-set';
import { JwtVerifier } from './jwt.verifier';
import { MemberAuthenticator } from './member.authenticator';

/**
 * Authentication on every route not marked @Public() (API keys, members' JWTs and console
 * sessions, with role checks), and the end-user (browser) guard and CORS.
 */
@Module({
  providers: [
    ApiKeyResolver,
    AuthFailureLimiter,
    ConsoleSessionTokens,
    JwksKeySet,
    JwtVerifier,
    MemberAuthenticator,
    { provide: APP_GUARD, useClass: AuthGuard },
    EndUserAuthenticator,
    EndUserGuard,
    EndUserCors,
  ],
  exports: [
    ApiKeyResolver,
    AuthFailureLimiter,
    ConsoleSessionTokens,
    EndUserAuthenticator,
    EndUserGuard,
    JwtVerifier,
    MemberAuthenticator,
  ],
})
export class GatewayAuthModule {}
