import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  NUMBER_FEATURES,
  type NumberSearch,
  numberSearchSchema,
  type OrderNumberBody,
  orderNumberSchema,
} from '@notify/domain';
import { Administered, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { ListNumbersUseCase } from './list-numbers.usecase';
import { OrderNumberUseCase } from './order-number.usecase';
import { ReleaseNumberUseCase } from './release-number.usecase';
import { SearchNumbersUseCase } from './search-numbers.usecase';

const availableSchema = z.object({
  phoneNumber: z.string(),
  locality: z.string().optional(),
  administrativeArea: z.string().optional(),
  phoneNumberType: z.string(),
  features: z.array(z.enum(NUMBER_FEATURES)),
  monthlyPrice: z.number(),
});
const numberSchema = z.object({
  phoneNumber: z.string(),
  createdAt: z.string(),
  countryCode: z.string(),
  numberType: z.string(),
  billingStatus: z.enum(['active', 'released']),
  nextBillingDate: z.string().describe('YYYY-MM-DD of the next monthly rent'),
  monthlyPrice: z.number(),
  releasedAt: z.string().optional(),
});
const searchResponseSchema = z.object({ numbers: z.array(availableSchema) });
const listSchema = z.object({ numbers: z.array(numberSchema), sharedNumber: z.string() });
const releasedListSchema = z.object({ numbers: z.array(numberSchema) });
const orderSchema = z.object({ orderId: z.string(), status: z.string(), phoneNumber: z.string() });
const releasedSchema = z.object({ phoneNumber: z.string(), released: z.boolean(), releasedAt: z.string() });
const phoneNumberParamSchema = orderNumberSchema.shape.phoneNumber;
// Named in the OpenAPI document as the pingram client names the shapes.
namedSchema('SearchAvailablePhoneNumbersResponseNumbersInner', availableSchema);
namedSchema('SearchAvailablePhoneNumbersResponse', searchResponseSchema);
namedSchema('ListPhoneNumbersResponseNumbersInner', numberSchema);
namedSchema('ListPhoneNumbersResponse', listSchema);
namedSchema('ListReleasedPhoneNumbersResponse', releasedListSchema);
namedSchema('OrderPhoneNumberRequest', orderNumberSchema);
namedSchema('OrderPhoneNumberResponse', orderSchema);
namedSchema('ReleasePhoneNumberResponse', releasedSchema);

/**
 * `/numbers`: phone numbers of the caller's account (numbers belong to the account, whichever of
 * its environments asks), bought on the deployment's Twilio account. Members search and list;
 * admins order and release.
 */
@ApiTags('Numbers')
@ApiErrors()
@Administered()
@Controller('numbers')
export class NumbersController {
  constructor(
    private readonly search: SearchNumbersUseCase,
    private readonly order: OrderNumberUseCase,
    private readonly list: ListNumbersUseCase,
    private readonly release: ReleaseNumberUseCase,
  ) {}

  @Get('available')
  @ApiOperation({ summary: 'Search local phone numbers on sale', operationId: 'searchAvailable' })
  @ApiMoreErrors(502)
  @ApiQuery({ name: 'countryCode', required: true, schema: { type: 'string', pattern: '^[A-Za-z]{2}$' } })
  @ApiQuery({
    name: 'features',
    required: false,
    description: 'Comma-separated: sms, mms, voice',
    schema: { type: 'string', maxLength: 64 },
  })
  @ApiQuery({ name: 'areaCode', required: false, schema: { type: 'string', pattern: '^\\d{2,5}$' } })
  @ApiQuery({
    name: 'contains',
    required: false,
    description: 'A pattern of 2 to 16 digits or letters (letters stand for their keypad digits)',
    schema: { type: 'string', pattern: '^[0-9A-Za-z]{2,16}$' },
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 50 } })
  @ApiOkResponse({ schema: openApi(searchResponseSchema, 'output') })
  available(@Query(new ZodPipe(numberSearchSchema)) query: NumberSearch) {
    return this.search.execute(query);
  }

  @Post('order')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Buy a number for the account, or reactivate one it released (its createdAt is kept)',
    operationId: 'orderNumber',
  })
  @ApiMoreErrors(409, 502)
  @ApiBody({ schema: openApi(orderNumberSchema) })
  @ApiOkResponse({ schema: openApi(orderSchema, 'output') })
  orderNumber(@CurrentTenant() tenant: Tenant, @Body(new ZodPipe(orderNumberSchema)) body: OrderNumberBody) {
    return this.order.execute(tenant, body.phoneNumber);
  }

  @Get('list')
  @ApiOperation({ summary: "List the account's active numbers", operationId: 'list' })
  @ApiOkResponse({ schema: openApi(listSchema, 'output') })
  active(@CurrentTenant() tenant: Tenant) {
    return this.list.active(tenant);
  }

  @Get('released')
  @ApiOperation({ summary: "List the account's released numbers", operationId: 'listReleased' })
  @ApiOkResponse({ schema: openApi(releasedListSchema, 'output') })
  released(@CurrentTenant() tenant: Tenant) {
    return this.list.released(tenant);
  }

  @Delete(':phoneNumber')
  @ApiOperation({ summary: 'Release an active number of the account', operationId: 'releaseNumber' })
  @ApiMoreErrors(404, 502)
  @ApiPathParam('phoneNumber', phoneNumberParamSchema)
  @ApiOkResponse({ schema: openApi(releasedSchema, 'output') })
  releaseNumber(
    @CurrentTenant() tenant: Tenant,
    @Param('phoneNumber', new ZodPipe(phoneNumberParamSchema)) phoneNumber: string,
  ) {
    return this.release.execute(tenant, phoneNumber);
  }
}
