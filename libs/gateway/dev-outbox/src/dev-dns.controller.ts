import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import {
  DNS_RECORD_TYPES,
  dnsRecordProblem,
  ZONE_MAX_RECORDS_PER_NAME,
  ZONE_MAX_VALUE_LENGTH,
} from '@notify/local-peer-dns';
import { domainOrIssue } from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { domainName } from '@notify/util';
import { z } from 'zod';
import { DevDns } from './dev-dns';

/** A DNS name under a sending domain, such as `sel._domainkey.example.com`: the one domain-name rule. */
const nameSchema = z
  .string()
  .max(254)
  .transform(domainOrIssue((name) => domainName(name, { recordName: true })));

const recordsSchema = z.object({
  records: z
    .array(
      z
        .object({ type: z.enum(DNS_RECORD_TYPES), value: z.string().max(ZONE_MAX_VALUE_LENGTH) })
        // What the DNS wire format can carry, by type (an MX preference fits 16 bits).
        .superRefine((record, ctx) => {
          const problem = dnsRecordProblem(record);
          if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
        }),
    )
    .max(ZONE_MAX_RECORDS_PER_NAME),
});

/**
 * `/dev/dns/{name}` (all-in-one, DEV_MODE, DNS_SERVERS unset; docs/api-behaviour.md): loads and
 * shows the records the local DNS peer answers for a name, so a sending domain verifies with no
 * registrar.
 */
@ApiExcludeController()
@Controller('dev/dns')
export class DevDnsController {
  constructor(private readonly dns: DevDns) {}

  @Put(':name')
  async load(
    @CurrentTenant() tenant: Tenant,
    @Param('name', new ZodPipe(nameSchema)) name: string,
    @Body(new ZodPipe(recordsSchema)) body: z.infer<typeof recordsSchema>,
  ) {
    return { name, records: await this.dns.load(tenant, name, body.records) };
  }

  @Get(':name')
  async show(@CurrentTenant() tenant: Tenant, @Param('name', new ZodPipe(nameSchema)) name: string) {
    return { name, records: await this.dns.records(tenant, name) };
  }
}
