import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Administered, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import {
  type CreateAddressBody,
  createAddressSchema,
  fullAddressSchema,
  InboundAddresses,
  type UpdateAddressBody,
  updateAddressSchema,
} from './inbound-addresses';

const addressSchema = z.object({
  fullAddress: z.string(),
  prefix: z.string(),
  domain: z.string(),
  type: z.enum(['builtin', 'custom']),
  displayName: z.string().optional(),
  createdAt: z.string(),
});
const addressBodySchema = z.object({ address: addressSchema });
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('AccountAddressesResponseAddressesInner', addressSchema);
namedSchema('AddressResponse', addressBodySchema);
const addressResponse = openApi(addressBodySchema, 'output');

/** `/addresses`: the environment's inbound email addresses. */
@ApiTags('Addresses')
@ApiErrors()
@Administered()
@Controller('addresses')
export class AddressesController {
  constructor(private readonly addresses: InboundAddresses) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an inbound address: the built-in one (no domain) or a custom one on a verified domain',
    operationId: 'createAddress',
  })
  @ApiMoreErrors(409)
  @ApiBody({ schema: openApi(createAddressSchema) })
  @ApiOkResponse({ schema: addressResponse })
  async create(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(createAddressSchema)) body: CreateAddressBody,
  ) {
    return { address: await this.addresses.create(tenant, body) };
  }

  @Get()
  @ApiOperation({ summary: "List the environment's inbound addresses", operationId: 'listAddresses' })
  @ApiOkResponse({ schema: openApi(z.object({ addresses: z.array(addressSchema) }), 'output') })
  async list(@CurrentTenant() tenant: Tenant) {
    return { addresses: await this.addresses.list(tenant) };
  }

  @Patch()
  @ApiOperation({
    summary: "Change an address's prefix or display name (a renamed built-in address keeps taking mail)",
    operationId: 'updateAddress',
  })
  @ApiMoreErrors(404, 409)
  @ApiBody({ schema: openApi(updateAddressSchema) })
  @ApiOkResponse({ schema: addressResponse })
  async update(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(updateAddressSchema)) body: UpdateAddressBody,
  ) {
    return { address: await this.addresses.update(tenant, body) };
  }

  @Delete(':fullAddress')
  @ApiOperation({
    summary: 'Delete a custom inbound address (the built-in one cannot be deleted)',
    operationId: 'deleteAddress',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('fullAddress', fullAddressSchema)
  @ApiOkResponse({ schema: addressResponse })
  async remove(
    @CurrentTenant() tenant: Tenant,
    @Param('fullAddress', new ZodPipe(fullAddressSchema)) fullAddress: string,
  ) {
    return { address: await this.addresses.remove(tenant, fullAddress) };
  }
}
