import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type TenantScope, userIdSchema } from '@notify/domain';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { InvalidRequestError, ProviderError } from '@notify/util';
import { SlackApps } from '@notify/providers';
import { UserRepository } from '@notify/store';
import { ErrorCode, type WebClient } from '@slack/web-api';
import { z } from 'zod';

const oauthSchema = z.object({
  code: z.string().min(1).max(1_024),
  redirect_uri: z.url({ protocol: /^https?$/ }).max(2_048),
});
const destinationSchema = z.object({ id: z.string(), name: z.string() });
const destinationsSchema = z.object({
  channels: z.array(destinationSchema),
  users: z.array(destinationSchema),
});
const userIdPipe = new ZodPipe(userIdSchema);

/** Pages read per list: a workspace with more channels than this shows the first ones. */
const MAX_PAGES = 10;
/** OAuth errors that are the caller's (a stale or wrong code), not Slack's. */
const CALLER_ERRORS = new Set([
  'invalid_code',
  'code_already_used',
  'bad_redirect_uri',
  'invalid_grant_type',
]);
/** Errors about the user's stored token: the user must connect again; Slack itself is fine. */
const TOKEN_ERRORS = new Set([
  'not_authed',
  'invalid_auth',
  'token_expired',
  'token_revoked',
  'account_inactive',
]);

function slackFailure(error: unknown): never {
  const { code, data } = error as { code?: string; data?: { error?: string } };
  const slackCode = code === ErrorCode.PlatformError ? (data?.error ?? 'unknown_error') : 'request_failed';
  const details = { provider: 'slack', providerCode: slackCode };
  if (CALLER_ERRORS.has(slackCode))
    throw new InvalidRequestError({
      code: 'INVALID_SLACK_CODE',
      message: `Slack refused the OAuth code (${slackCode}).`,
      fix: 'Send the code Slack just returned to your redirect_uri, once, with that same redirect_uri.',
      ...details,
    });
  if (TOKEN_ERRORS.has(slackCode))
    throw new InvalidRequestError({
      code: 'SLACK_TOKEN_INVALID',
      message: `Slack refused the user's token (${slackCode}).`,
      fix: 'Connect the user to Slack again (POST /users/{userId}/slack-oauth).',
      ...details,
    });
  throw new ProviderError({
    code: 'SLACK_ERROR',
    message: `Slack answered ${slackCode}.`,
    fix: 'Retry later.',
    ...details,
  });
}

/**
 * A user's Slack connection: the OAuth code exchange (`oauth.v2.access`, with the environment's
 * Slack app, else the deployment's) that stores the token on the user, and the destinations that
 * token can post to.
 */
@ApiTags('Users')
@ApiErrors()
@Controller('users/:userId')
export class SlackController {
  constructor(
    private readonly apps: SlackApps,
    private readonly users: UserRepository,
  ) {}

  @Post('slack-oauth')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Complete Slack OAuth and store the token on the user',
    operationId: 'generateSlackOauthPath',
  })
  @ApiMoreErrors(502)
  @ApiPathParam('userId', userIdSchema)
  @ApiBody({ schema: openApi(oauthSchema) })
  @ApiNoContentResponse({ description: 'The token is stored on the user.' })
  async oauth(
    @CurrentTenant() tenant: Tenant,
    @Param('userId', userIdPipe) userId: string,
    @Body(new ZodPipe(oauthSchema)) body: z.infer<typeof oauthSchema>,
  ): Promise<void> {
    const app = await this.apps.appOf(tenant);
    if (app === undefined)
      throw new InvalidRequestError({
        code: 'SLACK_NOT_CONFIGURED',
        message: 'This environment has no Slack app.',
        fix: 'Set the environment’s slack setting (clientId, clientSecret), or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET.',
      });
    const answer = await this.apps
      .client(undefined)
      .oauth.v2.access({
        client_id: app.clientId,
        client_secret: app.clientSecret,
        code: body.code,
        redirect_uri: body.redirect_uri,
      })
      .catch(slackFailure);
    const { response_metadata: _metadata, ...token } = answer;
    await this.users.identify(
      tenant,
      userId,
      { slackToken: { ...token, ok: true } },
      new Date().toISOString(),
      false,
    );
  }

  @Get('slack-channels')
  @ApiOperation({
    summary: 'Slack channels and users the user’s token can post to',
    operationId: 'getAvailableSlackChannels',
  })
  @ApiMoreErrors(502)
  @ApiPathParam('userId', userIdSchema)
  @ApiOkResponse({ schema: openApi(destinationsSchema, 'output') })
  async channels(
    @CurrentTenant() tenant: Tenant,
    @Param('userId', userIdPipe) userId: string,
  ): Promise<z.infer<typeof destinationsSchema>> {
    const client = this.apps.client(await this.tokenOf(tenant, userId));
    const [channels, users] = await Promise.all([
      this.pages(client, 'conversations.list', 'channels', {
        exclude_archived: true,
        types: 'public_channel,private_channel',
      }),
      this.pages(client, 'users.list', 'members', {}),
    ]).catch(slackFailure);
    return {
      channels: channels.map((c) => ({ id: String(c.id), name: `#${String(c.name)}` })),
      users: users
        .filter((u) => u.deleted !== true && u.is_bot !== true)
        .map((u) => ({ id: String(u.id), name: `@${String(u.name)}` })),
    };
  }

  private async tokenOf(scope: TenantScope, userId: string): Promise<string> {
    const token = (await this.users.slackToken(scope, userId))?.access_token;
    if (token === undefined)
      throw new InvalidRequestError({
        code: 'SLACK_NOT_CONNECTED',
        message: `User ${userId} has no Slack token.`,
        fix: 'Complete POST /users/{userId}/slack-oauth first, or identify the user with a slackToken.',
      });
    return token;
  }

  private async pages(
    client: WebClient,
    method: string,
    key: string,
    options: Record<string, unknown>,
  ): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = (await client.apiCall(method, {
        ...options,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      })) as unknown as Record<string, unknown>;
      items.push(...((answer[key] as Record<string, unknown>[] | undefined) ?? []));
      cursor = (answer.response_metadata as { next_cursor?: string } | undefined)?.next_cursor;
      if (!cursor) break;
    }
    return items;
  }
}
