export { RescheduleSendUseCase } from './reschedule-send.usecase';
export { SchedulingModule } from './scheduling.module';
