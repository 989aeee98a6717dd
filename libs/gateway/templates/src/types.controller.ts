import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CHANNELS,
  type CreateNotificationType,
  notificationIdSchema,
  createNotificationTypeSchema,
  type PatchNotificationType,
  patchNotificationTypeSchema,
} from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { InvalidRequestError } from '@notify/util';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { Administered, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import {
  ApiErrors,
  ApiMoreErrors,
  ApiPathParam,
  messageResponseSchema,
  openApi,
} from '@notify/gateway-openapi';
import { typeNotFound } from './not-found.errors';
import { TypeChanges } from './type-changes';
import { notificationTypeOutput, presentType } from './notification-type.presenter';
import { z } from 'zod';

const notificationIdPipe = new ZodPipe(notificationIdSchema);
const typeOk = { schema: openApi(notificationTypeOutput, 'output') };

@ApiTags('Notification types')
@ApiErrors()
@Administered()
@Controller('types')
export class TypesController {
  constructor(
    private readonly types: NotificationTypeRepository,
    private readonly templates: TemplateRepository,
    private readonly changes: TypeChanges,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a notification type', operationId: 'createNotificationType' })
  @ApiBody({ schema: openApi(createNotificationTypeSchema) })
  @ApiOkResponse(typeOk)
  async create(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(createNotificationTypeSchema)) body: CreateNotificationType,
  ) {
    if (!(await this.types.create(tenant, body, new Date().toISOString()))) {
      throw new InvalidRequestError({
        code: 'ALREADY_EXISTS',
        message: `Notification type "${body.notificationId}" exists already.`,
        fix: 'Update it with PATCH /types/{notificationId}.',
      });
    }
    await this.changes.announce(tenant);
    const created = await this.types.get(tenant, body.notificationId);
    if (created === undefined) throw typeNotFound(body.notificationId);
    return presentType(tenant, created);
  }

  @Get()
  @ApiOperation({ summary: 'List notification types', operationId: 'listNotificationTypes' })
  @ApiOkResponse({ schema: openApi(z.array(notificationTypeOutput), 'output') })
  async list(@CurrentTenant() tenant: Tenant) {
    return (await this.types.list(tenant)).map((type) => presentType(tenant, type));
  }

  /** An array even for one type: that is what the pingram client reads. */
  @Get(':notificationId')
  @ApiOperation({
    summary: 'Get a notification type (as a one-element array)',
    operationId: 'getNotificationType',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('notificationId', notificationIdSchema)
  @ApiOkResponse({ schema: openApi(z.array(notificationTypeOutput), 'output') })
  async get(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
  ) {
    const type = await this.types.get(tenant, notificationId);
    if (type === undefined) throw typeNotFound(notificationId);
    const templates = (
      await Promise.all(CHANNELS.map((c) => this.templates.list(tenant, notificationId, c)))
    ).flat();
    return [presentType(tenant, type, templates)];
  }

  @Patch(':notificationId')
  @ApiOperation({
    summary: 'Update a notification type (null clears a setting)',
    operationId: 'updateNotificationType',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('notificationId', notificationIdSchema)
  @ApiBody({ schema: openApi(patchNotificationTypeSchema) })
  @ApiOkResponse(typeOk)
  async update(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Body(new ZodPipe(patchNotificationTypeSchema)) body: PatchNotificationType,
  ) {
    const updated = await this.types.update(tenant, notificationId, body, new Date().toISOString());
    if (updated === undefined) throw typeNotFound(notificationId);
    await this.changes.announce(tenant);
    return presentType(tenant, updated);
  }

  @Delete(':notificationId')
  @ApiOperation({
    summary: 'Delete a notification type and its templates',
    operationId: 'deleteNotificationType',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('notificationId', notificationIdSchema)
  @ApiOkResponse({ schema: openApi(messageResponseSchema, 'output') })
  async delete(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
  ) {
    if (!(await this.types.delete(tenant, notificationId))) throw typeNotFound(notificationId);
    // The type is gone once deleted: announced even if deleting its templates fails.
    try {
      await this.templates.deleteAllOf(tenant, notificationId);
    } finally {
      await this.changes.announce(tenant);
    }
    return { message: 'Notification type deleted' };
  }
}
