import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type AutoJoinBody,
  autoJoinBodySchema,
  type InviteBody,
  inviteBodySchema,
  memberActor,
  memberUpdateBodySchema,
  type Role,
} from '@notify/domain';
import { type Caller, CurrentCaller, RequiresRole } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { type AutoJoinView, GetAutoJoinUseCase } from './get-auto-join.usecase';
import { InviteMemberUseCase } from './invite-member.usecase';
import { type InvitationView, ListInvitationsUseCase } from './list-invitations.usecase';
import { ListMembersUseCase, type MemberView } from './list-members.usecase';
import { managingMember } from './member-errors';
import { RemoveMemberUseCase } from './remove-member.usecase';
import { RevokeInvitationUseCase } from './revoke-invitation.usecase';
import { SetAutoJoinUseCase } from './set-auto-join.usecase';
import { UpdateMemberUseCase } from './update-member.usecase';

const userIdSchema = z.string().min(1).max(256);
const envQuerySchema = z.object({ envId: z.string().max(200).optional() });
const memberSchema = z.object({
  organizationId: z.string(),
  accountId: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  email: z.string().optional(),
  groups: z.array(z.string()),
});
const autoJoinSchema = z.object({ organizationId: z.string(), domains: z.array(z.string()) });
const successSchema = z.object({ success: z.boolean() });
const invitationSchema = z.object({
  email: z.string(),
  role: z.string(),
  invitedBy: z.string().describe('member:<userId> of the member who sent it'),
  createdAt: z.string(),
  expiresAt: z.string(),
});
const emailParamSchema = z.string().min(3).max(320);
// Named in the OpenAPI document as the pingram client names the shapes.
namedSchema('GetMembersResponseInner', memberSchema);
namedSchema('MemberInviteRequest', inviteBodySchema);
namedSchema('MemberUpdateRequest', memberUpdateBodySchema);
namedSchema('AutoJoinRequestBody', autoJoinBodySchema);

/**
 * `/members`: the people of the caller's account (members are account-level: the `envId` the
 * pingram client sends only picks the environment whose email pipeline sends an invitation).
 * Members list; admins invite, remove and set auto-join; owners change roles. An API key may
 * list, and nothing more (403): managing people takes a member's JWT.
 */
@ApiTags('Members')
@ApiErrors()
@Controller('members')
export class MembersController {
  constructor(
    private readonly list: ListMembersUseCase,
    private readonly invite: InviteMemberUseCase,
    private readonly update: UpdateMemberUseCase,
    private readonly remove: RemoveMemberUseCase,
    private readonly getAutoJoin: GetAutoJoinUseCase,
    private readonly setAutoJoin: SetAutoJoinUseCase,
    private readonly listInvitations: ListInvitationsUseCase,
    private readonly revokeInvitation: RevokeInvitationUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: "List the account's members", operationId: 'listMembers' })
  @ApiOkResponse({ schema: openApi(z.array(memberSchema), 'output') })
  listMembers(@CurrentCaller() caller: Caller): Promise<MemberView[]> {
    return this.list.execute(caller.accountId);
  }

  @Post()
  @HttpCode(200)
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Invite someone by email (role member by default; only an owner invites an owner)',
    operationId: 'inviteMember',
  })
  @ApiMoreErrors(409)
  @ApiBody({ schema: openApi(inviteBodySchema) })
  @ApiOkResponse({ schema: openApi(z.object({ message: z.string() }), 'output') })
  async inviteMember(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(inviteBodySchema)) body: InviteBody,
    @Query(new ZodPipe(envQuerySchema)) { envId }: z.infer<typeof envQuerySchema>,
  ): Promise<{ message: string }> {
    const member = managingMember(caller);
    return this.invite.execute({
      accountId: member.accountId,
      email: body.email,
      role: body.role ?? 'member',
      invitedBy: memberActor(member.userId),
      inviterRole: member.role,
      ...(envId !== undefined ? { envId } : {}),
    });
  }

  @Get('invitations')
  @RequiresRole('admin')
  @ApiOperation({
    summary: "The account's pending invitations (never their links)",
    operationId: 'listInvitations',
  })
  @ApiOkResponse({ schema: openApi(z.object({ invitations: z.array(invitationSchema) }), 'output') })
  invitations(@CurrentCaller() caller: Caller): Promise<{ invitations: InvitationView[] }> {
    return this.listInvitations.execute(caller.accountId);
  }

  @Delete('invitations/:email')
  @HttpCode(200)
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Revoke a pending invitation: its link stops working (an owner’s invitation: owners only)',
    operationId: 'revokeInvitation',
  })
  @ApiPathParam('email', emailParamSchema)
  @ApiOkResponse({ schema: openApi(successSchema, 'output') })
  revoke(
    @CurrentCaller() caller: Caller,
    @Param('email', new ZodPipe(emailParamSchema)) email: string,
  ): Promise<{ success: true }> {
    const member = managingMember(caller);
    return this.revokeInvitation.execute({ accountId: member.accountId, email, actorRole: member.role });
  }

  @Get('autojoin')
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'The email domains that join the account on first sign-in',
    operationId: 'getAutoJoin',
  })
  @ApiOkResponse({ schema: openApi(autoJoinSchema, 'output') })
  autoJoin(@CurrentCaller() caller: Caller): Promise<AutoJoinView> {
    return this.getAutoJoin.execute(caller.accountId);
  }

  @Post('autojoin')
  @HttpCode(200)
  @RequiresRole('admin')
  @ApiOperation({
    summary:
      'Replace the email domains whose people join the account as members on first sign-in (only the domain of your own sign-in email)',
    operationId: 'setAutoJoin',
  })
  @ApiMoreErrors(409)
  @ApiBody({ schema: openApi(autoJoinBodySchema) })
  @ApiOkResponse({ schema: openApi(autoJoinSchema, 'output') })
  changeAutoJoin(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(autoJoinBodySchema)) body: AutoJoinBody,
  ): Promise<AutoJoinView> {
    const member = managingMember(caller);
    return this.setAutoJoin.execute(member.accountId, body.domains, member.email);
  }

  @Patch(':userId')
  @RequiresRole('owner')
  @ApiOperation({ summary: "Change a member's role (owners only)", operationId: 'update' })
  @ApiPathParam('userId', userIdSchema)
  @ApiBody({ schema: openApi(memberUpdateBodySchema) })
  @ApiOkResponse({ schema: openApi(successSchema, 'output') })
  updateMember(
    @CurrentCaller() caller: Caller,
    @Param('userId', new ZodPipe(userIdSchema)) userId: string,
    @Body(new ZodPipe(memberUpdateBodySchema)) body: { role: Role },
  ): Promise<{ success: true }> {
    return this.update.execute({ accountId: managingMember(caller).accountId, userId, role: body.role });
  }

  @Delete(':userId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Remove a member (admins; an owner only by an owner), or leave the account yourself',
    operationId: 'removeMember',
  })
  @ApiPathParam('userId', userIdSchema)
  @ApiOkResponse({ schema: openApi(successSchema, 'output') })
  removeMember(
    @CurrentCaller() caller: Caller,
    @Param('userId', new ZodPipe(userIdSchema)) userId: string,
  ): Promise<{ success: true }> {
    const member = managingMember(caller);
    return this.remove.execute({
      accountId: member.accountId,
      userId,
      actor: { userId: member.userId, role: member.role },
    });
  }
}
