import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type BrandDetails, brandRegistrationSchema } from '@notify/domain';
import { Administered, type Caller, CurrentCaller } from '@notify/gateway-auth';
import { ApiErrors, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { brandRegistrationAnswer } from './brand.schemas';
import { GetBrandUseCase } from './get-brand.usecase';
import { SubmitBrandUseCase } from './submit-brand.usecase';

/**
 * The account's US 10DLC brand (one per account, whatever environment the caller names): owners
 * and admins (and secret keys) submit it, every member reads it.
 */
@ApiTags('Registrations')
@ApiErrors(409)
@Administered()
@Controller('registrations/us/10dlc/brand')
export class BrandRegistrationController {
  constructor(
    private readonly submit: SubmitBrandUseCase,
    private readonly get: GetBrandUseCase,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit the 10DLC brand for review (again after info_needed or rejected)',
    operationId: 'createA2pRegistration',
  })
  @ApiBody({ schema: openApi(brandRegistrationSchema) })
  @ApiOkResponse({ schema: openApi(brandRegistrationAnswer, 'output') })
  create(@CurrentCaller() caller: Caller, @Body(new ZodPipe(brandRegistrationSchema)) details: BrandDetails) {
    return this.submit.execute({ caller, details });
  }

  @Get()
  @ApiOperation({ summary: "The account's 10DLC brand registration", operationId: 'getA2pRegistration' })
  @ApiOkResponse({ schema: openApi(brandRegistrationAnswer, 'output') })
  read(@CurrentCaller() caller: Caller) {
    return this.get.execute(caller.accountId);
  }
}
