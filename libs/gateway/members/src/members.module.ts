import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { SendingModule } from '@notify/gateway-sending';
import { AcceptInviteUseCase } from './accept-invite.usecase';
import { ConfirmEmailChangeUseCase } from './confirm-email-change.usecase';
import { ConsoleSessionController } from './console-session.controller';
import { EndConsoleSessionUseCase } from './end-console-session.usecase';
import { GetConsoleSessionUseCase } from './get-console-session.usecase';
import { GetAutoJoinUseCase } from './get-auto-join.usecase';
import { InviteMemberUseCase } from './invite-member.usecase';
import { ListInvitationsUseCase } from './list-invitations.usecase';
import { ListMembersUseCase } from './list-members.usecase';
import { MemberMail } from './member-mail';
import { MembersController } from './members.controller';
import { ProfileController } from './profile.controller';
import { RemoveMemberUseCase } from './remove-member.usecase';
import { RequestEmailChangeUseCase } from './request-email-change.usecase';
import { RequestSignInLinkUseCase } from './request-sign-in-link.usecase';
import { RevokeInvitationUseCase } from './revoke-invitation.usecase';
import { SetAutoJoinUseCase } from './set-auto-join.usecase';
import { SignedTokens } from './signed-tokens';
import { StartConsoleSessionUseCase } from './start-console-session.usecase';
import { UpdateMemberUseCase } from './update-member.usecase';

/**
 * `/members`, `/profile` and the console's session routes: the account's people, invitations,
 * auto-join, email changes and members' console sign-in.
 */
@Module({
  imports: [GatewayAuthModule, SendingModule],
  controllers: [ConsoleSessionController, MembersController, ProfileController],
  providers: [
    AcceptInviteUseCase,
    ConfirmEmailChangeUseCase,
    EndConsoleSessionUseCase,
    GetConsoleSessionUseCase,
    GetAutoJoinUseCase,
    InviteMemberUseCase,
    ListInvitationsUseCase,
    ListMembersUseCase,
    MemberMail,
    RemoveMemberUseCase,
    RequestEmailChangeUseCase,
    RequestSignInLinkUseCase,
    RevokeInvitationUseCase,
    SetAutoJoinUseCase,
    SignedTokens,
    StartConsoleSessionUseCase,
    UpdateMemberUseCase,
  ],
  exports: [InviteMemberUseCase],
})
export class MembersModule {}
