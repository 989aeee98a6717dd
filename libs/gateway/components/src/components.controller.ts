import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  channelSchema,
  componentIdSchema,
  type ComponentPatch,
  type CreateComponentBody,
  createComponentSchema,
  patchComponentSchema,
} from '@notify/domain';
import { Administered, CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, ApiPathParam, namedSchema, openApi } from '@notify/gateway-openapi';
import { ZodPipe } from '@notify/platform';
import { z } from 'zod';
import { componentOutput, parsedComponentOutput } from './component.presenter';
import { CreateComponentUseCase } from './create-component.usecase';
import { DeleteComponentUseCase } from './delete-component.usecase';
import { GetComponentUseCase } from './get-component.usecase';
import { ListComponentsUseCase } from './list-components.usecase';
import { ListParsedComponentsUseCase } from './list-parsed-components.usecase';
import { PatchComponentUseCase } from './patch-component.usecase';

// Named in the OpenAPI document as the pingram client names the shapes.
namedSchema('EmailComponentPostRequest', createComponentSchema);
namedSchema('EmailComponentPatchRequest', patchComponentSchema);
namedSchema('EmailComponentResponse', componentOutput);
const listQuerySchema = z.object({
  channel: channelSchema.optional().describe('Components are EMAIL content: another channel lists none'),
});
const componentIdPipe = new ZodPipe(componentIdSchema);
const componentOk = { schema: openApi(componentOutput, 'output') };

/** `/components`: the environment's reusable email fragments, used in templates as `{{> componentId}}`. */
@ApiTags('Components')
@ApiErrors()
@Administered()
@Controller('components')
export class ComponentsController {
  constructor(
    private readonly createComponent: CreateComponentUseCase,
    private readonly getComponent: GetComponentUseCase,
    private readonly patchComponent: PatchComponentUseCase,
    private readonly deleteComponent: DeleteComponentUseCase,
    private readonly listComponents: ListComponentsUseCase,
    private readonly listParsedComponents: ListParsedComponentsUseCase,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an email component', operationId: 'createComponent' })
  @ApiBody({ schema: openApi(createComponentSchema) })
  @ApiOkResponse(componentOk)
  create(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(createComponentSchema)) body: CreateComponentBody,
  ) {
    return this.createComponent.execute({ scope: tenant, body });
  }

  @Get()
  @ApiOperation({ summary: "List the environment's email components", operationId: 'listComponents' })
  @ApiOkResponse({ schema: openApi(z.array(componentOutput), 'output') })
  list(
    @CurrentTenant() tenant: Tenant,
    @Query(new ZodPipe(listQuerySchema)) query: z.infer<typeof listQuerySchema>,
  ) {
    return this.listComponents.execute({
      scope: tenant,
      ...(query.channel ? { channel: query.channel } : {}),
    });
  }

  @Get('public')
  @ApiOperation({
    summary: 'List the components with their editor JSON parsed and nested components expanded',
    operationId: 'listComponentsParsed',
  })
  @ApiOkResponse({ schema: openApi(z.array(parsedComponentOutput), 'output') })
  listParsed(@CurrentTenant() tenant: Tenant) {
    return this.listParsedComponents.execute({ scope: tenant });
  }

  @Get(':componentId')
  @ApiOperation({ summary: 'Get a component', operationId: 'getComponent' })
  @ApiMoreErrors(404)
  @ApiPathParam('componentId', componentIdSchema)
  @ApiOkResponse(componentOk)
  get(@CurrentTenant() tenant: Tenant, @Param('componentId', componentIdPipe) componentId: string) {
    return this.getComponent.execute({ scope: tenant, componentId });
  }

  @Patch(':componentId')
  @ApiOperation({ summary: "Update a component's properties", operationId: 'patchComponent' })
  @ApiMoreErrors(404)
  @ApiPathParam('componentId', componentIdSchema)
  @ApiBody({ schema: openApi(patchComponentSchema) })
  @ApiOkResponse(componentOk)
  patch(
    @CurrentTenant() tenant: Tenant,
    @Param('componentId', componentIdPipe) componentId: string,
    @Body(new ZodPipe(patchComponentSchema)) patch: ComponentPatch,
  ) {
    return this.patchComponent.execute({ scope: tenant, componentId, patch });
  }

  @Delete(':componentId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a component no template or component uses',
    operationId: 'deleteComponent',
  })
  @ApiMoreErrors(404)
  @ApiPathParam('componentId', componentIdSchema)
  @ApiNoContentResponse()
  async remove(
    @CurrentTenant() tenant: Tenant,
    @Param('componentId', componentIdPipe) componentId: string,
  ): Promise<void> {
    await this.deleteComponent.execute({ scope: tenant, componentId });
  }
}
