import { Module } from '@nestjs/common';
import { AccountsModule } from '@notify/gateway-accounts';
import { MembersModule } from '@notify/gateway-members';
import { AccountController } from './account.controller';
import { AccountHistoryController } from './account-history.controller';
import { AccountCreator } from './account.creator';
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
import { GetUsageUseCase } from './get-usage.usecase';
import { GetUsageHistoryUseCase } from './get-usage-history.usecase';
import { UsageController } from './usage.controller';

/**
 * Accounts a person creates and reaches, the account's details, and organizations grouping
 * accounts with their metered usage.
 */
@Module({
  imports: [AccountsModule, MembersModule],
  controllers: [
    AccountsController,
    AccountController,
    AccountHistoryController,
    OrganizationsController,
    UsageController,
  ],
  providers: [
    AccountCreator,
    CreateAccountUseCase,
    ListAccountsUseCase,
    ListAccountHistoryUseCase,
    GetAccountUseCase,
    UpdateAccountUseCase,
    GetOrganizationUseCase,
    CreateOrganizationUseCase,
    GetUsageUseCase,
    GetUsageHistoryUseCase,
    { provide: MemberInvitations, useClass: MailedMemberInvitations },
  ],
})
export class OrganizationModule {}
