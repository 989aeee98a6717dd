export { CallSenderModule } from './call-sender.module';
export { SendCallUseCase, sayTwiml } from './send-call.usecase';
