import { type BeforeApplicationShutdown, Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { ReadinessRegistry } from './readiness.registry';
import { StatusController } from './status.controller';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, StatusController],
  providers: [ReadinessRegistry],
  exports: [ReadinessRegistry],
})
export class HealthModule implements BeforeApplicationShutdown {
  constructor(private readonly registry: ReadinessRegistry) {}

  beforeApplicationShutdown(): void {
    this.registry.startDraining();
  }
}
