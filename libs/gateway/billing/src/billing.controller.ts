import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type CheckoutBody, checkoutBodySchema } from '@notify/domain';
import { type Caller, CurrentCaller, RequiresRole } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { billingAccountSchema } from './billing.view';
import { PrepareCheckoutUseCase } from './prepare-checkout.usecase';

namedSchema('BillingPostRequestBody', checkoutBodySchema);

/**
 * `/billing`: the organization's billing account and the checkout that subscribes it to a budget
 * tier. Setting up what the organization pays is an owner's decision: the route needs an owner's
 * JWT (an admin, a member or an API key gets 403).
 */
@ApiTags('Billing')
@ApiErrors()
@Controller('billing')
export class BillingController {
  constructor(private readonly prepareCheckout: PrepareCheckoutUseCase) {}

  @Post()
  @HttpCode(200)
  @RequiresRole('owner')
  @ApiOperation({
    summary:
      "Get or create the organization's Stripe customer and, with budgetPriceId, a checkout session; a live (active or past_due) subscription is moved to that price instead, answered without checkoutSession (owner; 400 BILLING_DISABLED when billing is off)",
    operationId: 'prepareCheckoutSession',
  })
  @ApiBody({ schema: openApi(checkoutBodySchema) })
  @ApiOkResponse({ schema: openApi(billingAccountSchema, 'output') })
  @ApiMoreErrors(502)
  async prepare(@CurrentCaller() caller: Caller, @Body(new ZodPipe(checkoutBodySchema)) body: CheckoutBody) {
    return this.prepareCheckout.execute({ caller, body });
  }
}
