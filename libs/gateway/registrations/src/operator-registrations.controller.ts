import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type BrandReview, brandReviewSchema, registrationStatusSchema } from '@notify/domain';
import { ApiMoreErrors, ApiPathParam, OPERATOR_SCHEME, openApi } from '@notify/gateway-openapi';
import { Public, ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { accountIdParamSchema, brandRegistrationAnswer } from './brand.schemas';
import { type BrandQueueQuery, ListBrandsForReviewUseCase } from './list-brands-for-review.usecase';
import { OperatorGuard } from './operator.guard';
import { ReviewBrandUseCase } from './review-brand.usecase';

const brandQueueQuerySchema = z.object({
  brandStatus: registrationStatusSchema.default('pending_review'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** The service operator's side of 10DLC: the brands awaiting review, and recording review outcomes (OPERATOR_TOKEN, not a tenant's credentials). */
@ApiTags('Operator')
@ApiBearerAuth(OPERATOR_SCHEME)
@Public()
@UseGuards(OperatorGuard)
@Controller('operator/registrations/us/10dlc/brand')
export class OperatorRegistrationsController {
  constructor(
    private readonly review: ReviewBrandUseCase,
    private readonly queue: ListBrandsForReviewUseCase,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      "List every account's 10DLC brand in one review status, pending_review by default (service operator)",
    operationId: 'listA2pRegistrationsForReview',
  })
  @ApiQuery({ name: 'brandStatus', required: false, enum: registrationStatusSchema.options })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } })
  @ApiOkResponse({ schema: openApi(z.object({ brands: z.array(brandRegistrationAnswer) }), 'output') })
  @ApiMoreErrors(400, 401, 404, 500, 503)
  async list(@Query(new ZodPipe(brandQueueQuerySchema)) query: BrandQueueQuery) {
    return { brands: await this.queue.execute(query) };
  }

  @Post(':accountId/review')
  @HttpCode(200)
  @ApiOperation({
    summary: "Record a review outcome of an account's 10DLC brand or campaign (service operator)",
    operationId: 'reviewA2pRegistration',
  })
  @ApiPathParam('accountId', accountIdParamSchema)
  @ApiBody({ schema: openApi(brandReviewSchema) })
  @ApiOkResponse({ schema: openApi(brandRegistrationAnswer, 'output') })
  @ApiMoreErrors(400, 401, 404, 409, 500, 503)
  record(
    @Param('accountId', new ZodPipe(accountIdParamSchema)) accountId: string,
    @Body(new ZodPipe(brandReviewSchema)) review: BrandReview,
  ) {
    return this.review.execute({ accountId, review });
  }
}
