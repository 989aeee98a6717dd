import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import {
  DNS_RECORD_TYPES,
  dnsRecordProblem,
  ZONE_MAX_RECORDS_PER_NAME,
  ZONE_MAX_VALUE_LENGTH,
  zoneName,
} from '@notify/local-peer-dns';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { DevDns } from './dev-dns';

/** A DNS name: labels of letters, digits, "-" and "_" (as in `_domainkey`), up to 253 characters. */
const nameSchema = z
  .string()
  .max(254)
  .transform(zoneName)
  .pipe(
    z
      .string()
      .max(253)
      .regex(/^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, {
        message: 'expected a DNS name such as sel._domainkey.example.com',
      }),
  );

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
