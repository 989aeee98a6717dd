export { AcceptSendUseCase } from './accept-send.usecase';
export { SendingModule } from './sending.module';
