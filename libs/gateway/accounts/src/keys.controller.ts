import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Administered, type Caller, CurrentCaller, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import {
  ApiErrors,
  ApiMoreErrors,
  ApiPathParam,
  messageResponseSchema,
  openApi,
} from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { CreateKeyUseCase } from './create-key.usecase';
import { ListKeysUseCase } from './list-keys.usecase';
import { reachOf } from './reach';
import { RevokeKeyUseCase } from './revoke-key.usecase';

const createSchema = z.object({
  keyType: z.enum(['secret', 'public']),
  name: z.string().min(1).max(200),
  environmentId: z.string().min(1).max(200).optional(),
});

const keySchema = z.object({
  id: z.string(),
  key: z.string(),
  keyType: z.enum(['secret', 'public']),
  name: z.string(),
  createdAt: z.string(),
  environmentId: z.string(),
});

const envIdQuery = new ZodPipe(z.object({ envId: z.string().max(200).optional() }));

/**
 * API keys: secret keys (`notify_sk_…`, the server API) and public keys (`notify_pk_…`, which
 * stand in for the client id on the browser routes only). Created in one environment (shown once),
 * listed per environment masked, revoked by id at once everywhere. A key administers the keys of its
 * own environment; a member (JWT) those of every environment of the account.
 */
@ApiTags('Keys')
@ApiErrors()
@Administered()
@Controller('keys')
export class KeysController {
  constructor(
    private readonly createKey: CreateKeyUseCase,
    private readonly listKeys: ListKeysUseCase,
    private readonly revokeKey: RevokeKeyUseCase,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an API key (the key is returned only now); a member names the environment',
    operationId: 'createAPIKey',
  })
  @ApiMoreErrors(404)
  @ApiBody({ schema: openApi(createSchema) })
  @ApiOkResponse({ schema: openApi(keySchema, 'output') })
  async create(
    @CurrentCaller() caller: Caller,
    @Query(envIdQuery) query: { envId?: string },
    @Body(new ZodPipe(createSchema)) body: z.infer<typeof createSchema>,
  ) {
    const environmentId = body.environmentId ?? query.envId;
    return this.createKey.execute({
      reach: reachOf(caller),
      keyType: body.keyType,
      name: body.name,
      ...(environmentId !== undefined ? { environmentId } : {}),
    });
  }

  @Get()
  @ApiOperation({ summary: "List an environment's API keys (masked)", operationId: 'listAPIKeys' })
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
    return this.listKeys.execute(tenant);
  }

  @Delete(':keyId')
  @ApiOperation({ summary: 'Revoke an API key', operationId: 'revokeAPIKey' })
  @ApiMoreErrors(404)
  @ApiPathParam('keyId', z.string().max(200))
  @ApiOkResponse({ schema: openApi(messageResponseSchema, 'output') })
  async revoke(
    @CurrentCaller() caller: Caller,
    @Param('keyId', new ZodPipe(z.string().max(200))) keyId: string,
  ) {
    await this.revokeKey.execute({ reach: reachOf(caller), keyId });
    return { message: 'API key revoked' };
  }
}
