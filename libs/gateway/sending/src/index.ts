export { type Accepted, AcceptSendUseCase, type SendOrigin } from './accept-send.usecase';
export { sendOrigin } from './send.controller';
export { SendingModule } from './sending.module';
