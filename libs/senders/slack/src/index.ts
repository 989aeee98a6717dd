export { SendSlackUseCase } from './send-slack.usecase';
export { SlackSenderModule } from './slack-sender.module';
