import { Module } from '@nestjs/common';
import { ProvidersModule } from '@notify/providers';
import { RescheduleSendUseCase } from './reschedule-send.usecase';
import { SchedulerController } from './scheduler.controller';

/** `PUT/DELETE /sender/scheduler/{trackingId}`: scheduled sends that are still waiting. */
@Module({
  imports: [ProvidersModule],
  controllers: [SchedulerController],
  providers: [RescheduleSendUseCase],
  exports: [RescheduleSendUseCase],
})
export class SchedulingModule {}
