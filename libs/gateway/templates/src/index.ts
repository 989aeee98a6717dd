export { TemplatesModule } from './templates.module';
export { TypeChanges } from './type-changes';
