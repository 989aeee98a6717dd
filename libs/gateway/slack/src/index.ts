export { SlackModule } from './slack.module';
