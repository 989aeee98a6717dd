export { AccountOrganizations } from './account-organizations';
export { accountNotFound } from './get-account.usecase';
export { type MemberInvitation, MemberInvitations } from './member-invitations';
export { OrganizationModule } from './organization.module';
