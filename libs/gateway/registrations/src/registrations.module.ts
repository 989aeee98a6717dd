import { Module } from '@nestjs/common';
import { BrandRegistrationController } from './brand-registration.controller';
import { GetBrandUseCase } from './get-brand.usecase';
import { ListBrandsForReviewUseCase } from './list-brands-for-review.usecase';
import { OperatorGuard } from './operator.guard';
import { OperatorRegistrationsController } from './operator-registrations.controller';
import { RegistrationHistory } from './registration-history';
import { ReviewBrandUseCase } from './review-brand.usecase';
import { SubmitBrandUseCase } from './submit-brand.usecase';

/** US 10DLC brand registration: the account's submission, and the operator's queue and review outcomes. */
@Module({
  controllers: [BrandRegistrationController, OperatorRegistrationsController],
  providers: [
    SubmitBrandUseCase,
    GetBrandUseCase,
    ListBrandsForReviewUseCase,
    ReviewBrandUseCase,
    RegistrationHistory,
    OperatorGuard,
  ],
})
export class RegistrationsModule {}
