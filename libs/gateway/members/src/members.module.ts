import { Module } from '@nestjs/common';
import { SendingModule } from '@notify/gateway-sending';
import { AcceptInviteUseCase } from './accept-invite.usecase';
import { ConfirmEmailChangeUseCase } from './confirm-email-change.usecase';
import { GetAutoJoinUseCase } from './get-auto-join.usecase';
import { InviteMemberUseCase } from './invite-member.usecase';
import { ListInvitationsUseCase } from './list-invitations.usecase';
import { ListMembersUseCase } from './list-members.usecase';
import { MemberMail } from './member-mail';
import { MembersController } from './members.controller';
import { ProfileController } from './profile.controller';
import { RemoveMemberUseCase } from './remove-member.usecase';
import { RequestEmailChangeUseCase } from './request-email-change.usecase';
import { RevokeInvitationUseCase } from './revoke-invitation.usecase';
import { SetAutoJoinUseCase } from './set-auto-join.usecase';
import { SignedTokens } from './signed-tokens';
import { UpdateMemberUseCase } from './update-member.usecase';

/** `/members` and `/profile`: the account's people, invitations, auto-join and email changes. */
@Module({
  imports: [SendingModule],
  controllers: [MembersController, ProfileController],
  providers: [
    AcceptInviteUseCase,
    ConfirmEmailChangeUseCase,
    GetAutoJoinUseCase,
    InviteMemberUseCase,
    ListInvitationsUseCase,
    ListMembersUseCase,
    MemberMail,
    RemoveMemberUseCase,
    RequestEmailChangeUseCase,
    RevokeInvitationUseCase,
    SetAutoJoinUseCase,
    SignedTokens,
    UpdateMemberUseCase,
  ],
  exports: [InviteMemberUseCase],
})
export class MembersModule {}
