import { Body, Controller, Delete, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type SendBody, sendBodySchema } from '@notify/domain';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import {
  ApiErrors,
  ApiMoreErrors,
  ApiPathParam,
  messageResponseSchema,
  openApi,
} from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { RescheduleSendUseCase } from './reschedule-send.usecase';

const messageSchema = openApi(messageResponseSchema, 'output');
const trackingIdSchema = z.string().min(1).max(100);

/** Scheduled sends still waiting: replace (body and/or schedule) or cancel (404 once sent). */
@ApiTags('Sending')
@ApiErrors()
@ApiPathParam('trackingId', trackingIdSchema)
@Controller('sender/scheduler/:trackingId')
export class SchedulerController {
  constructor(private readonly reschedule: RescheduleSendUseCase) {}

  @Put()
  @HttpCode(200)
  @ApiMoreErrors(402, 404)
  @ApiOperation({
    summary: 'Replace a scheduled notification (body and/or schedule)',
    operationId: 'updateSchedule',
  })
  @ApiBody({ schema: openApi(sendBodySchema) })
  @ApiOkResponse({ schema: messageSchema })
  async update(
    @CurrentTenant() tenant: Tenant,
    @Param('trackingId', new ZodPipe(trackingIdSchema)) trackingId: string,
    @Body(new ZodPipe(sendBodySchema)) body: SendBody,
  ) {
    await this.reschedule.update(tenant, trackingId, body);
    return { message: 'The scheduled notification was updated.' };
  }

  @Delete()
  @HttpCode(200)
  @ApiMoreErrors(404)
  @ApiOperation({ summary: 'Cancel a scheduled notification', operationId: 'deleteSchedule' })
  @ApiOkResponse({ schema: messageSchema })
  async delete(
    @CurrentTenant() tenant: Tenant,
    @Param('trackingId', new ZodPipe(trackingIdSchema)) trackingId: string,
  ) {
    await this.reschedule.delete(tenant, trackingId);
    return { message: 'The scheduled notification was deleted.' };
  }
}
