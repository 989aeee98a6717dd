import { Module } from '@nestjs/common';
import { ComponentChanges } from './component-changes';
import { ComponentReferences } from './component-references';
import { ComponentsController } from './components.controller';
import { CreateComponentUseCase } from './create-component.usecase';
import { DeleteComponentUseCase } from './delete-component.usecase';
import { GetComponentUseCase } from './get-component.usecase';
import { ListComponentsUseCase } from './list-components.usecase';
import { ListParsedComponentsUseCase } from './list-parsed-components.usecase';
import { PatchComponentUseCase } from './patch-component.usecase';

/** `/components`: email components, one use case per operation. */
@Module({
  controllers: [ComponentsController],
  providers: [
    ComponentReferences,
    ComponentChanges,
    CreateComponentUseCase,
    GetComponentUseCase,
    PatchComponentUseCase,
    DeleteComponentUseCase,
    ListComponentsUseCase,
    ListParsedComponentsUseCase,
  ],
})
export class ComponentsModule {}
