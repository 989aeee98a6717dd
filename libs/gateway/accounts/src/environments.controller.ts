import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { channelSchema, type Environment } from '@notify/domain';
import { NotFoundError, ZodPipe } from '@notify/platform';
import { AccountRepository, ApiKeyRepository } from '@notify/store';
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { hashApiKey, keyPrefix, newApiKey, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, openApi } from '@notify/gateway-openapi';

const createSchema = z.object({ title: z.string().min(1).max(200), test: z.boolean().optional() });
const patchSchema = z.object({
  title: z.string().min(1).max(200).optional(),
  resetSecret: z.boolean().optional(),
  secureMode: z.boolean().optional(),
  disableSending: z.array(channelSchema).optional(),
  smtpUrl: z
    .url({ protocol: /^smtps?$/ })
    .nullable()
    .optional(),
});

/** The pingram client's Environment: `clientId` is the environment id, `clientSecret` its HMAC key. */
const present = (environment: Environment) => ({
  clientId: environment.envId,
  clientSecret: environment.secret,
  title: environment.title,
  disableSending: environment.disabledChannels,
  secureMode: environment.secureMode,
  test: environment.test,
});

/**
 * Environments of the caller's account. A key reads and changes its own environment; creating an
 * environment returns the first key of the new one (its creator's), never a key to an existing one.
 */
@ApiTags('Environments')
@ApiErrors(404)
@Controller('environments')
export class EnvironmentsController {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: "The caller's environment", operationId: 'listEnvironments' })
  async list(@CurrentTenant() tenant: Tenant) {
    const environment = await this.accounts.getEnvironment(tenant.accountId, tenant.envId);
    return environment === undefined ? [] : [present(environment)];
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an environment (answers with its first API key, shown once)',
    operationId: 'createEnvironment',
  })
  @ApiBody({ schema: openApi(createSchema) })
  async create(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(createSchema)) body: z.infer<typeof createSchema>,
  ) {
    const now = new Date().toISOString();
    const environment: Environment = {
      accountId: tenant.accountId,
      envId: randomUUID(),
      title: body.title,
      secret: randomBytes(32).toString('base64url'),
      secureMode: false,
      disabledChannels: [],
      test: body.test ?? false,
      createdAt: now,
    };
    await this.accounts.createEnvironment(environment);
    const apiKey = newApiKey();
    await this.keys.create({
      keyId: randomUUID(),
      accountId: tenant.accountId,
      envId: environment.envId,
      keyHash: hashApiKey(apiKey),
      prefix: keyPrefix(apiKey),
      name: 'first key',
      createdAt: now,
    });
    return { ...present(environment), apiKey };
  }

  @Patch(':clientId')
  @ApiOperation({ summary: 'Update the caller’s environment', operationId: 'updateEnvironment' })
  @ApiBody({ schema: openApi(patchSchema) })
  async update(
    @CurrentTenant() tenant: Tenant,
    @Param('clientId') clientId: string,
    @Body(new ZodPipe(patchSchema)) body: z.infer<typeof patchSchema>,
  ) {
    const notFound = new NotFoundError({
      code: 'NOT_FOUND',
      message: `No environment ${clientId} for this key.`,
      fix: 'Use the key of that environment.',
    });
    if (clientId !== tenant.envId) throw notFound;
    const updated = await this.accounts.updateEnvironment(tenant.accountId, clientId, {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.resetSecret ? { secret: randomBytes(32).toString('base64url') } : {}),
      ...(body.secureMode !== undefined ? { secureMode: body.secureMode } : {}),
      ...(body.disableSending !== undefined ? { disabledChannels: body.disableSending } : {}),
      ...(body.smtpUrl !== undefined ? { smtpUrl: body.smtpUrl ?? undefined } : {}),
    });
    if (updated === undefined) throw notFound;
    return present(updated);
  }
}
