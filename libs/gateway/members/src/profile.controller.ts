import { Body, Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { changeEmailBodySchema, tokenBodySchema } from '@notify/domain';
import { type Caller, CurrentCaller } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import { Public, ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { AcceptInviteUseCase, type AcceptedInvite } from './accept-invite.usecase';
import { ConfirmEmailChangeUseCase } from './confirm-email-change.usecase';
import { confirmPage } from './confirm-page';
import { forbidden } from './member-errors';
import { RequestEmailChangeUseCase } from './request-email-change.usecase';

const acceptedSchema = z.object({
  success: z.boolean(),
  accountId: z.string(),
  userExists: z.boolean(),
  inviteeEmail: z.string().optional(),
});
const tokenQuerySchema = z.object({ token: z.string().max(2_048).default('') });
// Named in the OpenAPI document as the pingram client names the shapes.
namedSchema('AcceptInviteRequest', tokenBodySchema);
namedSchema('AcceptInviteResponse', acceptedSchema);
namedSchema('ChangeEmailRequest', changeEmailBodySchema);

/**
 * `/profile`: the signed-in person. The links mailed for invitations and email changes open a page
 * (GET, which changes nothing) whose button POSTs the token; those POSTs need no credentials, the
 * token is the proof.
 */
@ApiTags('Profile')
@ApiErrors()
@Controller('profile')
export class ProfileController {
  constructor(
    private readonly acceptInvitation: AcceptInviteUseCase,
    private readonly requestEmailChange: RequestEmailChangeUseCase,
    private readonly confirmEmailChange: ConfirmEmailChangeUseCase,
  ) {}

  @Post('accept_invite')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an invitation with the token of its link',
    operationId: 'acceptInvite',
    security: [],
  })
  @ApiBody({ schema: openApi(tokenBodySchema) })
  @ApiOkResponse({ schema: openApi(acceptedSchema, 'output') })
  acceptInvite(@Body(new ZodPipe(tokenBodySchema)) body: { token: string }): Promise<AcceptedInvite> {
    return this.acceptInvitation.execute(body.token);
  }

  @Get('accept_invite')
  @Public()
  @ApiExcludeEndpoint()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('referrer-policy', 'no-referrer')
  acceptInvitePage(
    @Query(new ZodPipe(tokenQuerySchema)) { token }: z.infer<typeof tokenQuerySchema>,
  ): string {
    return confirmPage('Join the Notify account', 'accept_invite', 'Accept the invitation', token);
  }

  @Post('change-email')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Change your email: a confirmation link is mailed to the new address, nothing changes before it is followed',
    operationId: 'changeEmail',
  })
  @ApiMoreErrors(409)
  @ApiBody({ schema: openApi(changeEmailBodySchema) })
  @ApiOkResponse({ schema: openApi(z.object({ success: z.boolean() }), 'output') })
  changeEmail(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(changeEmailBodySchema)) body: { newEmail: string },
  ): Promise<{ success: true }> {
    if (caller.kind !== 'member')
      throw forbidden(
        'Only a person signed in with a JWT has an email to change; an API key has none.',
        'Call this with Authorization: Bearer <your JWT>.',
      );
    return this.requestEmailChange.execute({
      userId: caller.userId,
      accountId: caller.accountId,
      newEmail: body.newEmail,
    });
  }

  @Post('change-email/confirm')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm an email change with the token of the link mailed to the new address',
    operationId: 'confirmEmailChange',
    security: [],
  })
  @ApiBody({ schema: openApi(tokenBodySchema) })
  @ApiOkResponse({ schema: openApi(z.object({ success: z.boolean(), email: z.string() }), 'output') })
  confirm(
    @Body(new ZodPipe(tokenBodySchema)) body: { token: string },
  ): Promise<{ success: true; email: string }> {
    return this.confirmEmailChange.execute(body.token);
  }

  @Get('change-email/confirm')
  @Public()
  @ApiExcludeEndpoint()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('referrer-policy', 'no-referrer')
  confirmPage(@Query(new ZodPipe(tokenQuerySchema)) { token }: z.infer<typeof tokenQuerySchema>): string {
    return confirmPage('Confirm your new email address', 'confirm', 'Confirm', token);
  }
}
