import { Controller, Get, HttpException, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator';
import { ReadinessRegistry } from './readiness.registry';

const PROBE_TIMEOUT_MS = 3_000;

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly registry: ReadinessRegistry,
  ) {}

  /** The process is up and its event loop answers. Restarting would not help anything else. */
  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /**
   * Every configured backend answers within a few seconds, and the process is not draining. A
   * failure answers 503 with terminus's per-backend details rather than the API error body.
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    if (this.registry.isDraining) {
      void reply.status(503);
      return {
        status: 'error',
        info: {},
        error: { process: { status: 'down', message: 'draining' } },
        details: {},
      };
    }
    try {
      return await this.check();
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      void reply.status(error.getStatus());
      return error.getResponse();
    }
  }

  private check() {
    return this.health.check(
      this.registry.all().map((probe) => async () => {
        const indicator = this.indicators.check(probe.name);
        try {
          await withTimeout(probe.probe(), PROBE_TIMEOUT_MS);
          return indicator.up();
        } catch (error) {
          return indicator.down({ message: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
  }
}
