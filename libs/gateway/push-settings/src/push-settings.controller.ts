import { Body, Controller, Delete, Get, HttpCode, Put } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { apnsKeySetting, fcmServiceAccountSetting, maskedApnConfig, maskedFcmConfig } from '@notify/domain';
import {
  CurrentEndUser,
  CurrentTenant,
  type EndUser,
  EndUserRoutes,
  type Tenant,
} from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { NotFoundError } from '@notify/util';
import { AccountRepository } from '@notify/store';
import { ProviderSettings } from '@notify/provider-settings';
import { VapidKeyring } from '@notify/providers';
import { z } from 'zod';

const fcmSchema = z.object({ fcmConfig: z.string().max(32 * 1024) });
const apnSchema = z.object({
  KeyId: z.string().max(64),
  Key: z.string().max(8 * 1024),
  TeamId: z.string().max(64),
  Topic: z.string().max(256),
});
const vapidSchema = z.object({
  applicationServerKey: z.string().describe('The VAPID public key (base64url), for PushManager.subscribe'),
});

const none = (what: string, fix: string) =>
  new NotFoundError({ code: 'NOT_FOUND', message: `This environment has no ${what}.`, fix });

/**
 * Push credentials of the caller's environment (decisions 1 and 14): the Firebase service account
 * and the APNs key, validated on PUT (a broken key is a 400 that says what is wrong), sealed at
 * rest, masked on GET; and the environment's VAPID public key for web push subscriptions.
 */
@ApiTags('Push settings')
@ApiErrors()
@Controller('settings/push')
export class PushSettingsController {
  constructor(
    private readonly settings: ProviderSettings,
    private readonly vapid: VapidKeyring,
  ) {}

  @Get('fcm')
  @ApiOperation({
    summary: 'The FCM service account (private key masked)',
    operationId: 'getPushFcmSettings',
  })
  @ApiMoreErrors(404)
  @ApiOkResponse({ schema: openApi(fcmSchema, 'output') })
  async getFcm(@CurrentTenant() tenant: Tenant) {
    const account = await this.settings.get(tenant, fcmServiceAccountSetting);
    if (account === undefined)
      throw none('FCM configuration', 'PUT /settings/push/fcm {"fcmConfig": "<key file JSON>"}.');
    return { fcmConfig: maskedFcmConfig(account) };
  }

  @Put('fcm')
  @ApiOperation({
    summary: 'Set the FCM service account (the JSON key file)',
    operationId: 'upsertPushFcmSettings',
  })
  @ApiBody({ schema: openApi(fcmSchema) })
  @ApiOkResponse({ schema: openApi(fcmSchema, 'output') })
  async putFcm(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(fcmSchema)) body: z.infer<typeof fcmSchema>,
  ) {
    const account = await this.settings.put(tenant, fcmServiceAccountSetting, body.fcmConfig);
    return { fcmConfig: maskedFcmConfig(account) };
  }

  @Delete('fcm')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove the FCM service account', operationId: 'deletePushFcmSettings' })
  @ApiNoContentResponse({ description: 'Removed (or there was none).' })
  async deleteFcm(@CurrentTenant() tenant: Tenant): Promise<void> {
    await this.settings.clear(tenant, fcmServiceAccountSetting);
  }

  @Get('apn')
  @ApiOperation({ summary: 'The APNs key (masked)', operationId: 'getPushApnSettings' })
  @ApiMoreErrors(404)
  @ApiOkResponse({ schema: openApi(apnSchema, 'output') })
  async getApn(@CurrentTenant() tenant: Tenant) {
    const key = await this.settings.get(tenant, apnsKeySetting);
    if (key === undefined)
      throw none('APNs configuration', 'PUT /settings/push/apn {KeyId, Key, TeamId, Topic}.');
    return maskedApnConfig(key);
  }

  @Put('apn')
  @ApiOperation({
    summary: 'Set the APNs key (.p8), its key id, the team id and the bundle id',
    operationId: 'upsertPushApnSettings',
  })
  @ApiBody({ schema: openApi(apnSchema) })
  @ApiOkResponse({ schema: openApi(apnSchema, 'output') })
  async putApn(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(apnSchema)) body: z.infer<typeof apnSchema>,
  ) {
    return maskedApnConfig(await this.settings.put(tenant, apnsKeySetting, body));
  }

  @Delete('apn')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove the APNs key', operationId: 'deletePushApnSettings' })
  @ApiNoContentResponse({ description: 'Removed (or there was none).' })
  async deleteApn(@CurrentTenant() tenant: Tenant): Promise<void> {
    await this.settings.clear(tenant, apnsKeySetting);
  }

  @Get('web')
  @ApiOperation({
    summary: 'The VAPID public key browsers subscribe with',
    operationId: 'getPushWebSettings',
  })
  @ApiOkResponse({ schema: openApi(vapidSchema, 'output') })
  async getWeb(@CurrentTenant() tenant: Tenant) {
    const keys = await this.vapid.keysOf(tenant);
    if (keys === undefined) throw none('environment', 'Use a key of an existing environment.');
    return { applicationServerKey: keys.publicKey };
  }
}

/** The browser's side: the VAPID public key, for `PushManager.subscribe({applicationServerKey})`. */
@EndUserRoutes()
@Controller(':clientId/users/:userId/webpush')
export class ClientWebPushController {
  constructor(private readonly vapid: VapidKeyring) {}

  @Get('vapid_public_key')
  @ApiOperation({ summary: "The environment's VAPID public key", operationId: 'getVapidPublicKey' })
  @ApiOkResponse({ schema: openApi(vapidSchema, 'output') })
  async publicKey(@CurrentEndUser() user: EndUser) {
    const keys = await this.vapid.keysOf(user);
    if (keys === undefined) throw none('environment', 'Use an existing environment id.');
    return { applicationServerKey: keys.publicKey };
  }
}

const accountMetadataSchema = z.object({
  userAccountMetadata: z.object({
    logo: z.string(),
    environmentVapidPublicKey: z.string(),
    hasWebPushEnabled: z.boolean(),
  }),
});

/** What the browser client needs to offer web push (its `getUserAccountMetadata`). */
@EndUserRoutes()
@Controller(':clientId/users/:userId/account_metadata')
export class ClientAccountMetadataController {
  constructor(
    private readonly vapid: VapidKeyring,
    private readonly accounts: AccountRepository,
  ) {}

  @Get()
  @ApiOperation({
    summary: "The environment's web push settings for the browser",
    operationId: 'getClientAccountMetadata',
  })
  @ApiOkResponse({ schema: openApi(accountMetadataSchema, 'output') })
  async metadata(@CurrentEndUser() user: EndUser): Promise<z.infer<typeof accountMetadataSchema>> {
    const [keys, environment] = await Promise.all([
      this.vapid.keysOf(user),
      this.accounts.getEnvironment(user.accountId, user.envId),
    ]);
    if (keys === undefined || environment === undefined)
      throw none('environment', 'Use an existing environment id.');
    return {
      userAccountMetadata: {
        logo: '',
        environmentVapidPublicKey: keys.publicKey,
        hasWebPushEnabled: !environment.disabledChannels.includes('WEB_PUSH'),
      },
    };
  }
}
