import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  channelSchema,
  type Environment,
  type ProviderSettingKind,
  slackAppSetting,
  smtpRelaySetting,
  type TenantScope,
  twilioAccountSetting,
} from '@notify/domain';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, namedSchema, openApi } from '@notify/gateway-openapi';
import { type AppConfig, InjectConfig, ZodPipe } from '@notify/platform';
import { NotFoundError } from '@notify/util';
import { ProviderSettings } from '@notify/provider-settings';
import { VapidKeyring } from '@notify/providers';
import { AccountRepository } from '@notify/store';
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { limitReached } from './limits';
import { KeyIssuer } from './key-issuer';

const createSchema = z.object({ title: z.string().min(1).max(200), test: z.boolean().optional() });
const patchSchema = z.object({
  title: z.string().min(1).max(200).optional(),
  resetSecret: z.boolean().optional(),
  secureMode: z.boolean().optional(),
  disableSending: z.array(channelSchema).max(20).optional(),
  /** Email open and click tracking (pixel, rewritten links); on unless turned off. */
  emailTracking: z.boolean().optional(),
  /** The environment's own SMTP relay (smtp:// or smtps://, no options); null returns to the default. */
  smtpUrl: z.string().max(2_048).nullable().optional(),
  /** The environment's own Twilio account ({accountSid, authToken, fromNumber?, messagingServiceSid?, numbers?}); null returns to the default. */
  twilio: z.record(z.string(), z.unknown()).nullable().optional(),
  /** The environment's own Slack app ({clientId, clientSecret}); null returns to the default. */
  slack: z.record(z.string(), z.unknown()).nullable().optional(),
});

const environmentSchema = z.object({
  clientId: z.string(),
  clientSecret: z.string(),
  title: z.string(),
  disableSending: z.array(channelSchema),
  secureMode: z.boolean(),
  test: z.boolean(),
  emailTracking: z.boolean(),
  smtpUrl: z.string().optional().describe('The environment’s own SMTP relay, password masked'),
  twilio: z.string().optional().describe('The environment’s own Twilio account, token masked'),
  slack: z.string().optional().describe('The environment’s own Slack app, secret masked'),
});
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('Environment', environmentSchema);

/**
 * Environments of the caller's account. A key reads and changes its own environment; creating an
 * environment returns the first key of the new one (its creator's), never a key to an existing one.
 */
@ApiTags('Environments')
@ApiErrors()
@Controller('environments')
export class EnvironmentsController {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly issuer: KeyIssuer,
    private readonly settings: ProviderSettings,
    private readonly vapid: VapidKeyring,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: "The caller's environment", operationId: 'listEnvironments' })
  @ApiOkResponse({ schema: openApi(z.array(environmentSchema), 'output') })
  async list(@CurrentTenant() tenant: Tenant) {
    const environment = await this.accounts.getEnvironment(tenant.accountId, tenant.envId);
    return environment === undefined ? [] : [await this.present(environment)];
  }

  /** New environments start in secure mode: browser calls need the user's HMAC (decisions 2). */
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an environment (answers with its first API key, shown once)',
    operationId: 'createEnvironment',
  })
  @ApiBody({ schema: openApi(createSchema) })
  @ApiOkResponse({ schema: openApi(environmentSchema.extend({ apiKey: z.string() }), 'output') })
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
      secureMode: true,
      disabledChannels: [],
      test: body.test ?? false,
      createdAt: now,
    };
    const max = this.config.limits.environmentsPerAccount;
    if (!(await this.accounts.createEnvironment(environment, max)))
      throw limitReached(
        `${max} environments per account`,
        'MAX_ENVIRONMENTS_PER_ACCOUNT',
        'Reuse an existing environment.',
      );
    // Its web push key pair is made with it (environments made before web push get theirs on first use).
    await this.vapid.keysOf(environment);
    const { key } = await this.issuer.issue(environment, 'first key', now);
    return { ...(await this.present(environment)), apiKey: key };
  }

  @Patch(':clientId')
  @ApiOperation({ summary: 'Update the caller’s environment', operationId: 'updateEnvironment' })
  @ApiMoreErrors(404)
  @ApiPathParam('clientId', z.string())
  @ApiBody({ schema: openApi(patchSchema) })
  @ApiOkResponse({ schema: openApi(environmentSchema, 'output') })
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
    const scope: TenantScope = { accountId: tenant.accountId, envId: clientId };
    // Every setting is validated (and its hosts checked) before any is written.
    const changes = [
      [smtpRelaySetting, body.smtpUrl],
      [twilioAccountSetting, body.twilio],
      [slackAppSetting, body.slack],
    ] as const;
    for (const [kind, value] of changes) if (value !== undefined && value !== null) kind.parse(value);
    for (const [kind, value] of changes) {
      if (value === null) await this.settings.clear(scope, kind);
      else if (value !== undefined)
        await this.settings.put(scope, kind as ProviderSettingKind<unknown>, value);
    }
    const updated = await this.accounts.updateEnvironment(tenant.accountId, clientId, {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.resetSecret ? { secret: randomBytes(32).toString('base64url') } : {}),
      ...(body.secureMode !== undefined ? { secureMode: body.secureMode } : {}),
      ...(body.disableSending !== undefined ? { disabledChannels: body.disableSending } : {}),
      ...(body.emailTracking !== undefined ? { emailTracking: body.emailTracking } : {}),
    });
    if (updated === undefined) throw notFound;
    return this.present(updated);
  }

  /** The pingram client's Environment: `clientId` is the environment id, `clientSecret` its HMAC key. */
  private async present(environment: Environment) {
    const [smtpUrl, twilio, slack] = await Promise.all([
      this.settings.present(environment, smtpRelaySetting),
      this.settings.present(environment, twilioAccountSetting),
      this.settings.present(environment, slackAppSetting),
    ]);
    return {
      clientId: environment.envId,
      clientSecret: environment.secret,
      title: environment.title,
      disableSending: environment.disabledChannels,
      secureMode: environment.secureMode,
      test: environment.test,
      emailTracking: environment.emailTracking !== false,
      ...(smtpUrl === undefined ? {} : { smtpUrl }),
      ...(twilio === undefined ? {} : { twilio }),
      ...(slack === undefined ? {} : { slack }),
    };
  }
}
