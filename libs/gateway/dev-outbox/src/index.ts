export { DevMailModule } from './dev-mail.controller';
