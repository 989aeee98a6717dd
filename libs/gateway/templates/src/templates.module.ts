import { Module } from '@nestjs/common';
import { CreateTemplateUseCase } from './create-template.usecase';
import { DeleteTemplateUseCase } from './delete-template.usecase';
import { GetTemplateUseCase } from './get-template.usecase';
import { ListTemplatesUseCase } from './list-templates.usecase';
import { PreviewTemplateUseCase } from './preview-template.usecase';
import { SetDefaultTemplateUseCase } from './set-default-template.usecase';
import { TemplatesController } from './templates.controller';
import { UpdateTemplateUseCase } from './update-template.usecase';
import { TypeChanges } from './type-changes';
import { TypesController } from './types.controller';

/** Notification types and their templates per channel. */
@Module({
  controllers: [TypesController, TemplatesController],
  providers: [
    TypeChanges,
    ListTemplatesUseCase,
    CreateTemplateUseCase,
    SetDefaultTemplateUseCase,
    GetTemplateUseCase,
    UpdateTemplateUseCase,
    DeleteTemplateUseCase,
    PreviewTemplateUseCase,
  ],
  exports: [TypeChanges],
})
export class TemplatesModule {}
