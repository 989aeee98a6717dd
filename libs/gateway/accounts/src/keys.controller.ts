import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InvalidRequestError, NotFoundError, ZodPipe } from '@notify/platform';
import { ApiKeyRepository } from '@notify/store';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  hashApiKey,
  keyPrefix,
  newApiKey,
  ApiKeyResolver,
  CurrentTenant,
  type Tenant,
} from '@notify/gateway-auth';
import { ApiErrors, openApi } from '@notify/gateway-openapi';

const createSchema = z.object({
  keyType: z.enum(['secret', 'public']),
  name: z.string().min(1).max(200),
  environmentId: z.string().optional(),
});

const notFound = (what: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No ${what} for this key.`,
    fix: 'Use a key of the environment concerned.',
  });

/** API keys of the caller's environment: created (shown once), listed masked, revoked at once everywhere. */
@ApiTags('Keys')
@ApiErrors(404)
@Controller('keys')
export class KeysController {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly resolver: ApiKeyResolver,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an API key (the key is returned only now)', operationId: 'createAPIKey' })
  @ApiBody({ schema: openApi(createSchema) })
  async create(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(createSchema)) body: z.infer<typeof createSchema>,
  ) {
    if (body.environmentId !== undefined && body.environmentId !== tenant.envId)
      throw notFound(`environment ${body.environmentId}`);
    if (body.keyType === 'public') {
      throw new InvalidRequestError({
        code: 'UNSUPPORTED_KEY_TYPE',
        message:
          'Public keys are not supported; browser clients authenticate with the client id and user id.',
        fix: 'Create a secret key for server-side use.',
      });
    }
    const key = newApiKey();
    const record = {
      keyId: randomUUID(),
      accountId: tenant.accountId,
      envId: tenant.envId,
      keyHash: hashApiKey(key),
      prefix: keyPrefix(key),
      name: body.name,
      createdAt: new Date().toISOString(),
    };
    await this.keys.create(record);
    return {
      id: record.keyId,
      key,
      keyType: 'secret',
      name: record.name,
      createdAt: record.createdAt,
      environmentId: tenant.envId,
    };
  }

  @Get()
  @ApiOperation({ summary: 'List API keys (masked)', operationId: 'listAPIKeys' })
  async list(@CurrentTenant() tenant: Tenant) {
    const keys = await this.keys.list(tenant);
    return {
      keys: keys.map((k) => ({
        id: k.keyId,
        key: `${k.prefix}…`,
        keyType: 'secret',
        accountId: k.accountId,
        environmentId: k.envId,
        name: k.name,
        revoked: k.revokedAt !== undefined,
        createdAt: k.createdAt,
      })),
    };
  }

  @Delete(':keyId')
  @ApiOperation({ summary: 'Revoke an API key', operationId: 'revokeAPIKey' })
  async revoke(@CurrentTenant() tenant: Tenant, @Param('keyId') keyId: string) {
    const [key] = (await this.keys.list(tenant)).filter((k) => k.keyId === keyId);
    if (key === undefined || !(await this.keys.revoke(tenant, keyId, new Date().toISOString())))
      throw notFound(`active key ${keyId}`);
    await this.resolver.revoked(key.keyHash);
    return { message: 'API key revoked' };
  }
}
