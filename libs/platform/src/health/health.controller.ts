import { Controller, Get, HttpException, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { z } from 'zod';
import { Public } from '../auth/public.decorator';
import { namedSchema, withTimeout } from '@notify/util';
import { openApi } from '../http/openapi-schema';
import { ReadinessRegistry } from './readiness.registry';

const PROBE_TIMEOUT_MS = 3_000;

/** Terminus's answer: each probe by name, under `info` (up) or `error` (down), and all in `details`. */
const probes = z.record(z.string(), z.looseObject({ status: z.enum(['up', 'down']) }));
const healthCheckResult = openApi(
  namedSchema(
    'HealthCheckResult',
    z.object({
      status: z.enum(['ok', 'error', 'shutting_down']),
      info: probes.optional(),
      error: probes.optional(),
      details: probes,
    }),
  ),
  'output',
);

@ApiTags('Health')
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
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Liveness: the process answers', operationId: 'healthLive' })
  @ApiOkResponse({ description: 'The process is up', schema: healthCheckResult })
  live() {
    return this.health.check([]);
  }

  /**
   * Every configured backend answers within a few seconds, and the process is not draining. A
   * failure answers 503 with terminus's per-backend details rather than the API error body.
   */
  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: every backend answers and the process is not draining',
    operationId: 'healthReady',
  })
  @ApiOkResponse({ description: 'Ready to serve', schema: healthCheckResult })
  @ApiServiceUnavailableResponse({
    description: 'A backend is down, or the process is draining',
    schema: healthCheckResult,
  })
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
