import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type TestEmailBody, testEmailBodySchema } from '@notify/domain';
import { type Caller, CurrentCaller, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import { InjectClock, ZodPipe } from '@notify/platform';
import type { Clock } from '@notify/util';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Accepted } from './accept-send.usecase';
import { sendOrigin } from './send.controller';
import { SendTestEmailUseCase } from './send-test-email.usecase';
import { UsageLimitGuard } from './usage-limit.guard';

const testEmailAnswer = namedSchema(
  'PostEmailTestResponse',
  z.object({ trackingId: z.string(), messages: z.array(z.string()) }),
);

@ApiTags('Sending')
@ApiErrors(402, 503)
// A test email is a real one through the pipeline, metered like any send: refused past the limit.
@UseGuards(UsageLimitGuard)
@Controller('sender/test')
export class TestEmailController {
  constructor(
    private readonly sendTest: SendTestEmailUseCase,
    @InjectClock() private readonly clock: Clock,
  ) {}

  @Post('email')
  @HttpCode(200)
  @ApiOperation({
    summary: "Send content under test, its merge tags filled with sample values, to the caller's own address",
    operationId: 'testEmail',
  })
  @ApiBody({ schema: openApi(testEmailBodySchema) })
  @ApiOkResponse({ schema: openApi(testEmailAnswer, 'output') })
  email(
    @Body(new ZodPipe(testEmailBodySchema)) body: TestEmailBody,
    @CurrentTenant() tenant: Tenant,
    @CurrentCaller() caller: Caller,
    @Req() request: FastifyRequest,
  ): Promise<Accepted> {
    const receivedAt = this.clock.now();
    return this.sendTest.execute({
      tenant,
      caller,
      body,
      origin: sendOrigin(request, 'email', body, receivedAt),
    });
  }
}
