export { type Accepted, AcceptSendUseCase } from './accept-send.usecase';
export { sendOrigin } from './send.controller';
export { SendingModule } from './sending.module';
export { UsageLimitGuard } from './usage-limit.guard';
