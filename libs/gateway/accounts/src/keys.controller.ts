import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Administered, ApiKeyResolver, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import {
  ApiErrors,
  ApiMoreErrors,
  ApiPathParam,
  messageResponseSchema,
  openApi,
} from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { InvalidRequestError, NotFoundError } from '@notify/util';
import { AccountRepository, ApiKeyRepository } from '@notify/store';
import { z } from 'zod';
import { KeyIssuer } from './key-issuer';

const createSchema = z.object({
  keyType: z.enum(['secret', 'public']),
  name: z.string().min(1).max(200),
  environmentId: z.string().max(200).optional(),
});

const keySchema = z.object({
  id: z.string(),
  key: z.string(),
  keyType: z.literal('secret'),
  name: z.string(),
  createdAt: z.string(),
  environmentId: z.string(),
});

const notFound = (what: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No ${what} for this key.`,
    fix: 'Use a key of the environment concerned.',
  });

/** API keys of the caller's environment: created (shown once), listed masked, revoked at once everywhere. */
@ApiTags('Keys')
@ApiErrors()
@Administered()
@Controller('keys')
export class KeysController {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly accounts: AccountRepository,
    private readonly issuer: KeyIssuer,
    private readonly resolver: ApiKeyResolver,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an API key (the key is returned only now)', operationId: 'createAPIKey' })
  @ApiMoreErrors(404)
  @ApiBody({ schema: openApi(createSchema) })
  @ApiOkResponse({ schema: openApi(keySchema, 'output') })
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
    const { record, key } = await this.issuer.issue(tenant, body.name, new Date().toISOString());
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
  @ApiOkResponse({
    schema: openApi(
      z.object({
        keys: z.array(
          keySchema.omit({ key: true }).extend({
            key: z.string().describe('The first characters only'),
            accountId: z.string(),
            revoked: z.boolean(),
          }),
        ),
      }),
      'output',
    ),
  })
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
  @ApiMoreErrors(404)
  @ApiPathParam('keyId', z.string())
  @ApiOkResponse({ schema: openApi(messageResponseSchema, 'output') })
  async revoke(@CurrentTenant() tenant: Tenant, @Param('keyId') keyId: string) {
    const revoked = await this.keys.revoke(tenant, keyId, new Date().toISOString());
    if (revoked === undefined) throw notFound(`active key ${keyId}`);
    await this.accounts.releaseKeySlot(tenant.accountId, tenant.envId);
    // Evicted here and, through pub/sub, on every other gateway: no replica honours it from cache.
    await this.resolver.revoked(revoked.keyHash);
    return { message: 'API key revoked' };
  }
}
