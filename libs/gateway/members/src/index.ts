export { InviteMemberUseCase, type InviteMemberCommand } from './invite-member.usecase';
export { MembersModule } from './members.module';
