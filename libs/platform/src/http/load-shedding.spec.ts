import { Controller, Get, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Writable } from 'node:stream';
import { Public } from '../auth/public.decorator';
import { loadAppConfig } from '../config/app.config';
import { createLogger } from '../logging/logger';
import { PlatformModule } from '../platform.module';
import { createHttpApp, listen } from './http-app.factory';
import { pressureOf, type SheddingLimits } from './load-shedding';

describe('pressureOf', () => {
  const limits: SheddingLimits = { maxInFlight: 10, maxEventLoopDelayMs: 100, maxHeapUsedPercent: 80 };
  const calm = { inFlight: 9, eventLoopDelayMs: 100, heapUsedPercent: 80 };

  it('is undefined at the limits and names the first limit passed', () => {
    expect(pressureOf(calm, limits)).toBeUndefined();
    expect(pressureOf({ ...calm, inFlight: 10 }, limits)).toBe('in_flight');
    expect(pressureOf({ ...calm, eventLoopDelayMs: 101 }, limits)).toBe('event_loop_delay');
    expect(pressureOf({ ...calm, heapUsedPercent: 80.5 }, limits)).toBe('heap');
    expect(pressureOf({ inFlight: 10, eventLoopDelayMs: 500, heapUsedPercent: 99 }, limits)).toBe(
      'in_flight',
    );
  });

  it('ignores a limit set to 0', () => {
    const off = { maxInFlight: 0, maxEventLoopDelayMs: 0, maxHeapUsedPercent: 0 };
    expect(pressureOf({ inFlight: 1e6, eventLoopDelayMs: 1e6, heapUsedPercent: 100 }, off)).toBeUndefined();
  });
});

describe('load shedding in the HTTP app', () => {
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));

  @Public()
  @Controller('probe')
  class SlowController {
    @Get('slow')
    async slow() {
      await gate;
      return { ok: true };
    }
    @Get('fast')
    fast() {
      return { ok: true };
    }
  }

  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    const config = loadAppConfig({ SHED_MAX_IN_FLIGHT: '2', SHED_EVENT_LOOP_DELAY_MS: '300' });
    const logger = createLogger({
      level: 'silent',
      service: 'test',
      destination: new Writable({ write: (_c, _e, callback) => callback() }),
    });
    @Module({ imports: [PlatformModule.forRoot(config, logger)], controllers: [SlowController] })
    class TestModule {}
    app = await createHttpApp(TestModule, { ...config, http: { ...config.http, port: 0 } }, logger);
    base = await listen(app, { ...config, http: { ...config.http, host: '127.0.0.1', port: 0 } });
  });

  afterAll(async () => {
    release();
    await app.close();
  });

  it('refuses a request over SHED_MAX_IN_FLIGHT with 503 NOT_ACCEPTED and Retry-After, and serves /health/live', async () => {
    const held = [fetch(`${base}/probe/slow`), fetch(`${base}/probe/slow`)];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await fetch(`${base}/probe/fast`, { headers: { 'x-request-id': 'req-shed-0001' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      trackingId: 'req-shed-0001',
      error: {
        code: 'NOT_ACCEPTED',
        message: expect.stringContaining('overloaded (in flight)'),
        fix: expect.any(String),
      },
    });
    expect((await fetch(`${base}/health/live`)).status).toBe(200);

    release();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    gate = Promise.resolve();
    // Both slots are free again once the held responses are closed.
    expect((await fetch(`${base}/probe/fast`)).status).toBe(200);
  });

  it('refuses requests while the event loop is delayed past SHED_EVENT_LOOP_DELAY_MS, then recovers', async () => {
    const blockUntil = Date.now() + 700;
    while (Date.now() < blockUntil) {
      // A synchronous stall, as a CPU-bound burst would cause.
    }
    // The stall shows in the first sample that covers it: the overdue one, or (when the sampler ran
    // before the delay monitor recorded the stall) the next, 500 ms later. It holds for a sample.
    let refused: Response | undefined;
    for (const until = Date.now() + 1_500; refused === undefined && Date.now() < until;) {
      const answer = await fetch(`${base}/probe/fast`);
      if (answer.status === 503) refused = answer;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (refused === undefined) throw new Error('no request was refused after the stall');
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      'event loop delay',
    );
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    // A calm window clears it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await fetch(`${base}/probe/fast`)).status).toBe(200);
  });
});
