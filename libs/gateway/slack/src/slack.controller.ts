import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { userIdSchema } from '@notify/domain';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { ConnectSlackUseCase } from './connect-slack.usecase';
import { ListSlackDestinationsUseCase } from './list-slack-destinations.usecase';

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
    private readonly connectSlack: ConnectSlackUseCase,
    private readonly listDestinations: ListSlackDestinationsUseCase,
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
    await this.connectSlack.execute({
      scope: tenant,
      userId,
      code: body.code,
      redirectUri: body.redirect_uri,
    });
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
    return this.listDestinations.execute({ scope: tenant, userId });
  }
}
