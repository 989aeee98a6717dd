import { Module } from '@nestjs/common';
import { TemplatesController } from './templates.controller';
import { TypesController } from './types.controller';

/** Notification types and their templates per channel. */
@Module({ controllers: [TypesController, TemplatesController] })
export class TemplatesModule {}
