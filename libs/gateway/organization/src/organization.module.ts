import { Module } from '@nestjs/common';
import { AccountsModule } from '@notify/gateway-accounts';
import { MembersModule } from '@notify/gateway-members';
import { AccountController } from './account.controller';
import { AccountHistoryController } from './account-history.controller';
import { AccountCreator } from './account.creator';
import { AccountOrganizations } from './account-organizations';
import { AccountsController } from './accounts.controller';
import { CreateAccountUseCase } from './create-account.usecase';
import { CreateOrganizationUseCase } from './create-organization.usecase';
import { GetAccountUseCase } from './get-account.usecase';
import { GetOrganizationUseCase } from './get-organization.usecase';
import { ListAccountHistoryUseCase } from './list-account-history.usecase';
import { ListAccountsUseCase } from './list-accounts.usecase';
import { MailedMemberInvitations, MemberInvitations } from './member-invitations';
import { OrganizationsController } from './organizations.controller';
import { UpdateAccountUseCase } from './update-account.usecase';

/** Accounts a person creates and reaches, the account's details, and organizations grouping accounts. */
@Module({
  imports: [AccountsModule, MembersModule],
  controllers: [AccountsController, AccountController, AccountHistoryController, OrganizationsController],
  providers: [
    AccountCreator,
    AccountOrganizations,
    CreateAccountUseCase,
    ListAccountsUseCase,
    ListAccountHistoryUseCase,
    GetAccountUseCase,
    UpdateAccountUseCase,
    GetOrganizationUseCase,
    CreateOrganizationUseCase,
    { provide: MemberInvitations, useClass: MailedMemberInvitations },
  ],
  exports: [AccountOrganizations],
})
export class OrganizationModule {}
