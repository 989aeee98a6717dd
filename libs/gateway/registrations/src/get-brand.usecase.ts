import { Injectable } from '@nestjs/common';
import { type BrandRegistration, brandRegistrationView } from '@notify/domain';
import { BrandRegistrationRepository } from '@notify/store';
import { NotFoundError } from '@notify/util';

export const noBrand = (accountId: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `Account ${accountId} has no 10DLC brand registration.`,
    fix: 'Submit one with POST /registrations/us/10dlc/brand.',
  });

/** The account's 10DLC brand as answered (a sole proprietor's without taxId); 404 before any submission. */
@Injectable()
export class GetBrandUseCase {
  constructor(private readonly brands: BrandRegistrationRepository) {}

  async execute(accountId: string): Promise<BrandRegistration> {
    const brand = await this.brands.get(accountId);
    if (brand === undefined) throw noBrand(accountId);
    return brandRegistrationView(brand);
  }
}
