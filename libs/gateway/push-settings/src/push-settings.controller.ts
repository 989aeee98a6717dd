import { Body, Controller, Delete, Get, HttpCode, Put } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  Administered,
  CurrentEndUser,
  CurrentTenant,
  type EndUser,
  EndUserRoutes,
  type Tenant,
} from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { ClearPushCredentialUseCase } from './clear-push-credential.usecase';
import { GetPushCredentialUseCase } from './get-push-credential.usecase';
import { PutPushCredentialUseCase } from './put-push-credential.usecase';
import { VapidPublicKeyUseCase } from './vapid-public-key.usecase';
import { WebPushMetadataUseCase } from './web-push-metadata.usecase';

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

/**
 * Push credentials of the caller's environment (`/settings/push/{fcm,apn}`): the Firebase service account
 * and the APNs key, validated on PUT (a broken key is a 400 that says what is wrong), sealed at
 * rest, masked on GET; and the environment's VAPID public key for web push subscriptions.
 */
@ApiTags('Push settings')
@ApiErrors()
@Administered()
@Controller('settings/push')
export class PushSettingsController {
  constructor(
    private readonly getCredential: GetPushCredentialUseCase,
    private readonly putCredential: PutPushCredentialUseCase,
    private readonly clearCredential: ClearPushCredentialUseCase,
    private readonly vapidPublicKey: VapidPublicKeyUseCase,
  ) {}

  @Get('fcm')
  @ApiOperation({
    summary: 'The FCM service account (private key masked)',
    operationId: 'getPushFcmSettings',
  })
  @ApiMoreErrors(404)
  @ApiOkResponse({ schema: openApi(fcmSchema, 'output') })
  async getFcm(@CurrentTenant() tenant: Tenant) {
    return this.getCredential.execute({ scope: tenant, credential: 'fcm' });
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
    return this.putCredential.execute({ scope: tenant, credential: 'fcm', input: body.fcmConfig });
  }

  @Delete('fcm')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove the FCM service account', operationId: 'deletePushFcmSettings' })
  @ApiNoContentResponse({ description: 'Removed (or there was none).' })
  async deleteFcm(@CurrentTenant() tenant: Tenant): Promise<void> {
    await this.clearCredential.execute({ scope: tenant, credential: 'fcm' });
  }

  @Get('apn')
  @ApiOperation({ summary: 'The APNs key (masked)', operationId: 'getPushApnSettings' })
  @ApiMoreErrors(404)
  @ApiOkResponse({ schema: openApi(apnSchema, 'output') })
  async getApn(@CurrentTenant() tenant: Tenant) {
    return this.getCredential.execute({ scope: tenant, credential: 'apn' });
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
    return this.putCredential.execute({ scope: tenant, credential: 'apn', input: body });
  }

  @Delete('apn')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove the APNs key', operationId: 'deletePushApnSettings' })
  @ApiNoContentResponse({ description: 'Removed (or there was none).' })
  async deleteApn(@CurrentTenant() tenant: Tenant): Promise<void> {
    await this.clearCredential.execute({ scope: tenant, credential: 'apn' });
  }

  @Get('web')
  @ApiOperation({
    summary: 'The VAPID public key browsers subscribe with',
    operationId: 'getPushWebSettings',
  })
  @ApiOkResponse({ schema: openApi(vapidSchema, 'output') })
  async getWeb(@CurrentTenant() tenant: Tenant) {
    return { applicationServerKey: await this.vapidPublicKey.execute({ scope: tenant, caller: 'server' }) };
  }
}

/** The browser's side: the VAPID public key, for `PushManager.subscribe({applicationServerKey})`. */
@EndUserRoutes()
@Controller(':clientId/users/:userId/webpush')
export class ClientWebPushController {
  constructor(private readonly vapidPublicKey: VapidPublicKeyUseCase) {}

  @Get('vapid_public_key')
  @ApiOperation({ summary: "The environment's VAPID public key", operationId: 'getVapidPublicKey' })
  @ApiOkResponse({ schema: openApi(vapidSchema, 'output') })
  async publicKey(@CurrentEndUser() user: EndUser) {
    return { applicationServerKey: await this.vapidPublicKey.execute({ scope: user, caller: 'browser' }) };
  }
}

const accountMetadataSchema = z.object({
  userAccountMetadata: z.object({
    logo: z.string(),
    environmentVapidPublicKey: z.string(),
    hasWebPushEnabled: z.boolean(),
  }),
});

/**
 * The pingram UserApi's `getAccountMetadata` on the server API (a secret key's environment, or the
 * `?envId=` a member names): the same answer as the browser's `account_metadata`. A static path, so
 * the router matches it before `users/:userId` (getUser).
 */
@ApiTags('Users')
@ApiErrors()
@Controller('users/account-metadata')
export class AccountMetadataController {
  constructor(private readonly webPushMetadata: WebPushMetadataUseCase) {}

  @Get()
  @ApiOperation({
    summary: "The environment's logo, VAPID public key and whether it sends web push",
    operationId: 'getAccountMetadata',
  })
  @ApiOkResponse({ schema: openApi(accountMetadataSchema, 'output') })
  async metadata(@CurrentTenant() tenant: Tenant): Promise<z.infer<typeof accountMetadataSchema>> {
    return { userAccountMetadata: await this.webPushMetadata.execute(tenant) };
  }
}

/** What the browser client needs to offer web push (its `getUserAccountMetadata`). */
@EndUserRoutes()
@Controller(':clientId/users/:userId/account_metadata')
export class ClientAccountMetadataController {
  constructor(private readonly webPushMetadata: WebPushMetadataUseCase) {}

  @Get()
  @ApiOperation({
    summary: "The environment's web push settings for the browser",
    operationId: 'getClientAccountMetadata',
  })
  @ApiOkResponse({ schema: openApi(accountMetadataSchema, 'output') })
  async metadata(@CurrentEndUser() user: EndUser): Promise<z.infer<typeof accountMetadataSchema>> {
    return { userAccountMetadata: await this.webPushMetadata.execute(user) };
  }
}
