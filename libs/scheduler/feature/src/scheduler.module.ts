import { Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectLogger, type Logger } from '@notify/platform';
import { setTimeout as sleep } from 'node:timers/promises';
import { DIGEST_BATCH, ReleaseDueDigestsUseCase } from './release-due-digests.usecase';
import { RELEASE_BATCH, ReleaseDueSendsUseCase } from './release-due-sends.usecase';

/** How often an idle scheduler looks for due sends: the most a release can lag behind its due time. */
const POLL_MS = 100;
/** Backoff while the coordination store or the bus is unreachable. */
const TROUBLE_MS = 1_000;

/**
 * Releases scheduled sends at their due time, and digests when their window closes. Any number of replicas may run: the delayed queue
 * hands each due send to one of them.
 */
@Module({ providers: [ReleaseDueSendsUseCase, ReleaseDueDigestsUseCase] })
export class SchedulerModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly release: ReleaseDueSendsUseCase,
    private readonly digests: ReleaseDueDigestsUseCase,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        // A full batch means more may be due: go again at once.
        const sends = await this.release.execute();
        const digests = await this.digests.execute();
        if (sends < RELEASE_BATCH && digests < DIGEST_BATCH) await sleep(POLL_MS);
      } catch (error) {
        this.logger.warn({ err: error }, 'could not release due sends; retrying');
        await sleep(TROUBLE_MS);
      }
    }
  }
}
