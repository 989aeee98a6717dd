import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type Channel,
  channelSchema,
  createTemplateSchema,
  deliveryModeSchema,
  notificationIdSchema,
  type TemplateContent,
  templateContentSchema,
  templateIdSchema,
} from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { Administered, CurrentTenant, RequiresRole, type Tenant } from '@notify/gateway-auth';
import {
  ApiErrors,
  ApiPathParam,
  messageResponseSchema,
  namedSchema,
  openApi,
} from '@notify/gateway-openapi';
import { CreateTemplateUseCase } from './create-template.usecase';
import { DeleteTemplateUseCase } from './delete-template.usecase';
import { GetTemplateUseCase } from './get-template.usecase';
import { ListTemplatesUseCase } from './list-templates.usecase';
import { presentTemplate, templateOutput } from './notification-type.presenter';
import {
  type PreviewTemplateBody,
  previewTemplateSchema,
  PreviewTemplateUseCase,
} from './preview-template.usecase';
import { SetDefaultTemplateUseCase } from './set-default-template.usecase';
import { UpdateTemplateUseCase } from './update-template.usecase';

const defaultSelectionSchema = z.object({
  templateId: templateIdSchema,
  modes: z.array(deliveryModeSchema.exclude(['off'])).min(1),
});
const channelPipe = new ZodPipe(channelSchema);
const notificationIdPipe = new ZodPipe(notificationIdSchema);
const templateIdPipe = new ZodPipe(templateIdSchema);
const templateOk = { schema: openApi(templateOutput, 'output') };
const previewOutput = namedSchema(
  'TemplatePreviewResponse',
  z.object({
    /** Per channel: EMAIL subject, html, previewText, fromAddress, fromName; SMS text, encoding, segments… */
    rendered: z.record(z.string(), z.unknown()),
    parameters: z.record(z.string(), z.unknown()),
    problems: z.array(z.object({ field: z.string(), message: z.string() })),
  }),
);

@ApiTags('Templates')
@ApiErrors(404)
@ApiPathParam('notificationId', notificationIdSchema)
@ApiPathParam('channel', channelSchema)
@Administered()
@Controller('notifications/:notificationId/:channel/templates')
export class TemplatesController {
  constructor(
    private readonly listTemplates: ListTemplatesUseCase,
    private readonly createTemplate: CreateTemplateUseCase,
    private readonly setDefaultTemplate: SetDefaultTemplateUseCase,
    private readonly getTemplate: GetTemplateUseCase,
    private readonly updateTemplate: UpdateTemplateUseCase,
    private readonly deleteTemplate: DeleteTemplateUseCase,
    private readonly previewTemplate: PreviewTemplateUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the templates of a notification and channel', operationId: 'listTemplates' })
  @ApiOkResponse({ schema: openApi(z.array(templateOutput), 'output') })
  async list(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Param('channel', channelPipe) channel: Channel,
  ) {
    const { templates, type } = await this.listTemplates.execute({ scope: tenant, notificationId, channel });
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
    const { template, type } = await this.createTemplate.execute({
      scope: tenant,
      notificationId,
      channel,
      body,
    });
    return presentTemplate(tenant, template, type);
  }

  /** Renders unsaved content; any member may, as reading templates. */
  @Post('preview')
  @HttpCode(200)
  @RequiresRole('member')
  @ApiOperation({
    summary: 'Render template content as the channel would send it, without saving it',
    operationId: 'previewTemplate',
  })
  @ApiBody({ schema: openApi(previewTemplateSchema) })
  @ApiOkResponse({ schema: openApi(previewOutput, 'output') })
  preview(
    @CurrentTenant() tenant: Tenant,
    @Param('notificationId', notificationIdPipe) notificationId: string,
    @Param('channel', channelPipe) channel: Channel,
    @Body(new ZodPipe(previewTemplateSchema)) body: PreviewTemplateBody,
  ) {
    return this.previewTemplate.execute({ scope: tenant, notificationId, channel, body });
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
    const { template, type } = await this.setDefaultTemplate.execute({
      scope: tenant,
      notificationId,
      channel,
      templateId: body.templateId,
      modes: body.modes,
    });
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
    const { template, type } = await this.getTemplate.execute({
      scope: tenant,
      notificationId,
      channel,
      templateId,
    });
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
    const { template, type } = await this.updateTemplate.execute({
      scope: tenant,
      notificationId,
      channel,
      templateId,
      content: body,
    });
    return presentTemplate(tenant, template, type);
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
    await this.deleteTemplate.execute({ scope: tenant, notificationId, channel, templateId });
    return { message: 'Template deleted' };
  }
}
