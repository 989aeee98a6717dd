import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { senderDomainSchema } from '@notify/domain';
import { Administered, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { AddSendingDomainUseCase } from './add-sending-domain.usecase';
import { DeleteSendingDomainUseCase } from './delete-sending-domain.usecase';
import { ListSendingDomainsUseCase } from './list-sending-domains.usecase';

const addDomainSchema = z.object({ sender: senderDomainSchema });
/** The shapes as the OpenAPI document shows them (the input before normalising). */
const senderText = z.string().max(320).describe('A domain, or an email address on it');
const statusSchema = z.enum(['PENDING', 'SUCCESS', 'FAILED']);
const domainSchema = z.object({
  sender: z.string(),
  status: statusSchema,
  selector: z.string(),
  createdAt: z.string(),
  lastSync: z.string(),
  mailFromDomainStatus: statusSchema.optional(),
  statusReason: z.string().optional(),
  dnsRecords: z.array(
    z.object({
      type: z.enum(['TXT', 'CNAME']),
      name: z.string(),
      value: z.string(),
      purpose: z.enum(['DKIM', 'SPF', 'RETURN_PATH', 'DMARC']),
      required: z.boolean(),
    }),
  ),
});
// Named in the OpenAPI document as the pingram client names the shapes.
namedSchema('GetSendersResponseInner', domainSchema);
const postBodySchema = namedSchema('PostSendersRequestBody', z.object({ sender: senderText }));
const domainsResponse = openApi(z.array(domainSchema), 'output');

/** `/domains`: the environment's sending domains (see docs/api-behaviour.md, Sending domains). */
@ApiTags('Domains')
@ApiErrors()
@Administered()
@Controller('domains')
export class DomainsController {
  constructor(
    private readonly add: AddSendingDomainUseCase,
    private readonly list: ListSendingDomainsUseCase,
    private readonly remove: DeleteSendingDomainUseCase,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a sending domain: its DKIM key is made, and the DNS records to publish are listed',
    operationId: 'addDomain',
  })
  @ApiBody({ schema: openApi(postBodySchema) })
  @ApiOkResponse({ schema: domainsResponse })
  create(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(addDomainSchema)) body: z.infer<typeof addDomainSchema>,
  ) {
    return this.add.execute(tenant, body.sender);
  }

  @Get()
  @ApiOperation({ summary: "List the environment's sending domains", operationId: 'listDomains' })
  @ApiOkResponse({ schema: domainsResponse })
  domains(@CurrentTenant() tenant: Tenant) {
    return this.list.execute(tenant);
  }

  @Delete(':sender')
  @ApiOperation({
    summary: 'Delete a sending domain (its mail is no longer signed)',
    operationId: 'deleteDomain',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('sender', senderText)
  @ApiOkResponse({ schema: openApi(z.object({ success: z.boolean() }), 'output') })
  delete(@CurrentTenant() tenant: Tenant, @Param('sender', new ZodPipe(senderDomainSchema)) domain: string) {
    return this.remove.execute(tenant, domain);
  }
}
