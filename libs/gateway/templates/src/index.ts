export { TemplatesModule } from './templates.module';
