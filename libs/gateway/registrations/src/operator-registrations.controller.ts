import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type BrandReview, brandReviewSchema } from '@notify/domain';
import { ApiMoreErrors, ApiPathParam, OPERATOR_SCHEME, openApi } from '@notify/gateway-openapi';
import { Public, ZodPipe } from '@notify/platform';
import { accountIdParamSchema, brandRegistrationAnswer } from './brand.schemas';
import { OperatorGuard } from './operator.guard';
import { ReviewBrandUseCase } from './review-brand.usecase';

/** The service operator's side of 10DLC: recording review outcomes (OPERATOR_TOKEN, not a tenant's credentials). */
@ApiTags('Operator')
@ApiBearerAuth(OPERATOR_SCHEME)
@Public()
@UseGuards(OperatorGuard)
@Controller('operator/registrations/us/10dlc/brand')
export class OperatorRegistrationsController {
  constructor(private readonly review: ReviewBrandUseCase) {}

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
