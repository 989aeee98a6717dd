import { Injectable } from '@nestjs/common';
import { type BrandRegistration, brandRegistrationView, type RegistrationStatus } from '@notify/domain';
import { BrandRegistrationRepository } from '@notify/store';

export interface BrandQueueQuery {
  readonly brandStatus: RegistrationStatus;
  readonly limit: number;
}

/**
 * The operator's queue: every account's brand in one review status (by default those awaiting
 * review), the longest unchanged first, each as its account would read it.
 */
@Injectable()
export class ListBrandsForReviewUseCase {
  constructor(private readonly brands: BrandRegistrationRepository) {}

  async execute(query: BrandQueueQuery): Promise<BrandRegistration[]> {
    const brands = await this.brands.withBrandStatus(query.brandStatus, query.limit);
    return brands.map(brandRegistrationView);
  }
}
