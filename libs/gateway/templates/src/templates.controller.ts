import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type Channel,
  channelSchema,
  createTemplateSchema,
  deliveryModeSchema,
  notificationIdSchema,
  type Template,
  type TemplateContent,
  templateContentSchema,
  templateIdSchema,
} from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { InvalidRequestError, NotFoundError } from '@notify/util';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';
import { z } from 'zod';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiPathParam, messageResponseSchema, openApi } from '@notify/gateway-openapi';
import { presentTemplate, templateOutput } from './notification-type.presenter';
import { typeNotFound } from './types.controller';

const defaultSelectionSchema = z.object({
  templateId: templateIdSchema,
  modes: z.array(deliveryModeSchema.exclude(['off'])).min(1),
});
const channelPipe = new ZodPipe(channelSchema);
const notificationIdPipe = new ZodPipe(notificationIdSchema);
const templateIdPipe = new ZodPipe(templateIdSchema);
const templateOk = { schema: openApi(templateOutput, 'output') };

const templateNotFound = (templateId: string, channel: Channel) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No ${channel} template "${templateId}" for this notification.`,
    fix: 'List them with GET …/templates.',
  });

@ApiTags('Templates')
@ApiErrors(404)
@ApiPathParam('notificationId', notificationIdSchema)
@ApiPathParam('channel', channelSchema)
@Controller('notifications/:notificationId/:channel/templates')
export class TemplatesController {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly types: NotificationTypeRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the templates of a notification and channel', operationId: 'listTemplates' })
  @ApiOkResponse({ schema: openApi(z.array(templateOutput), 'output') })
  async list(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Param('channel', channelPipe) channel: Channel,
  ) {
    const [templates, type] = await Promise.all([
      this.templates.list(tenant, notificationId, channel),
      this.types.get(tenant, notificationId),
    ]);
    return templates.map((t) => presentTemplate(tenant, t, type));
  }

  /** The first template of a channel becomes its default, so sends without templateId use it. */
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a template', operationId: 'createTemplate' })
  @ApiBody({ schema: openApi(createTemplateSchema) })
  @ApiOkResponse(templateOk)
  async create(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Param('channel', channelPipe) channel: Channel,
    @Body(new ZodPipe(createTemplateSchema)) body: z.infer<typeof createTemplateSchema>,
  ) {
    const type = await this.types.get(tenant, notificationId);
    if (type === undefined) throw typeNotFound(notificationId);
    const now = new Date().toISOString();
    const template: Template = { ...body, notificationId, channel, createdAt: now, updatedAt: now };
    if (!(await this.templates.create(tenant, template))) {
      throw new InvalidRequestError({
        code: 'ALREADY_EXISTS',
        message: `Template "${body.templateId}" exists already for ${channel}.`,
        fix: 'Update it with PATCH, or choose another templateId.',
      });
    }
    const updatedType =
      type.defaultTemplates?.[channel]?.instant === undefined
        ? await this.types.setDefaultTemplate(
            tenant,
            notificationId,
            channel,
            body.templateId,
            ['instant'],
            now,
          )
        : type;
    return presentTemplate(tenant, template, updatedType);
  }

  @Patch('default-selection')
  @ApiOperation({
    summary: 'Choose the default template per delivery mode',
    operationId: 'setDefaultTemplate',
  })
  @ApiBody({ schema: openApi(defaultSelectionSchema) })
  @ApiOkResponse(templateOk)
  async setDefault(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Param('channel', channelPipe) channel: Channel,
    @Body(new ZodPipe(defaultSelectionSchema)) body: z.infer<typeof defaultSelectionSchema>,
  ) {
    const template = await this.templates.get(tenant, notificationId, channel, body.templateId);
    if (template === undefined) throw templateNotFound(body.templateId, channel);
    const type = await this.types.setDefaultTemplate(
      tenant,
      notificationId,
      channel,
      body.templateId,
      body.modes,
      new Date().toISOString(),
    );
    return presentTemplate(tenant, template, type);
  }

  @Get(':templateId')
  @ApiOperation({ summary: 'Get a template', operationId: 'getTemplate' })
  @ApiPathParam('templateId', templateIdSchema)
  @ApiOkResponse(templateOk)
  async get(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Param('channel', channelPipe) channel: Channel,
    @Param('templateId', templateIdPipe) templateId: string,
  ) {
    const [template, type] = await Promise.all([
      this.templates.get(tenant, notificationId, channel, templateId),
      this.types.get(tenant, notificationId),
    ]);
    if (template === undefined) throw templateNotFound(templateId, channel);
    return presentTemplate(tenant, template, type);
  }

  @Patch(':templateId')
  @ApiOperation({ summary: 'Update a template', operationId: 'updateTemplate' })
  @ApiPathParam('templateId', templateIdSchema)
  @ApiBody({ schema: openApi(templateContentSchema) })
  @ApiOkResponse(templateOk)
  async update(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Param('channel', channelPipe) channel: Channel,
    @Param('templateId', templateIdPipe) templateId: string,
    @Body(new ZodPipe(templateContentSchema)) body: TemplateContent,
  ) {
    const updated = await this.templates.update(
      tenant,
      notificationId,
      channel,
      templateId,
      body,
      new Date().toISOString(),
    );
    if (updated === undefined) throw templateNotFound(templateId, channel);
    return presentTemplate(tenant, updated, await this.types.get(tenant, notificationId));
  }

  @Delete(':templateId')
  @ApiOperation({ summary: 'Delete a template', operationId: 'deleteTemplate' })
  @ApiPathParam('templateId', templateIdSchema)
  @ApiOkResponse({ schema: openApi(messageResponseSchema, 'output') })
  async delete(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Param('channel', channelPipe) channel: Channel,
    @Param('templateId', templateIdPipe) templateId: string,
  ) {
    if (!(await this.templates.delete(tenant, notificationId, channel, templateId)))
      throw templateNotFound(templateId, channel);
    await this.types.clearDefaultTemplate(
      tenant,
      notificationId,
      channel,
      templateId,
      new Date().toISOString(),
    );
    return { message: 'Template deleted' };
  }
}
