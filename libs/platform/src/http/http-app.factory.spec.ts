import { Body, Controller, Get, Module, Post, Req } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest, InjectOptions } from 'fastify';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { loadAppConfig } from '../config/app.config';
import { InvalidRequestError, NotFoundError, RateLimitedError } from '@notify/util';
import { ReadinessRegistry } from '../health/readiness.registry';
import { createLogger } from '../logging/logger';
import { PlatformModule } from '../platform.module';
import { createHttpApp, jsonDepth, MAX_JSON_DEPTH } from './http-app.factory';
import { KeepRawBody, rawBodyOf } from './raw-body';

@Controller('probe')
class ProbeController {
  @Post('echo')
  echo(@Body() body: unknown) {
    return { body: body ?? null };
  }
  @Post('validate')
  validate(@Body() body: unknown) {
    return z.object({ type: z.string() }).parse(body);
  }
  @Get('missing')
  missing() {
    throw new NotFoundError({ code: 'NOT_FOUND', message: 'no such thing', fix: 'check the id' });
  }
  @Get('invalid')
  invalid() {
    throw new InvalidRequestError({ code: 'INVALID_SCHEDULE_FORMAT', message: 'bad' });
  }
  @Get('crash')
  crash() {
    throw new Error('secret internals');
  }
  @Get('ip')
  ip(@Req() request: FastifyRequest) {
    return { ip: request.ip };
  }
  @Get('item/:id')
  item() {
    return { ok: true };
  }
  @Post('signed')
  @KeepRawBody(64)
  signed(@Req() request: FastifyRequest, @Body() body: unknown) {
    return { raw: rawBodyOf(request) ?? null, body: body ?? null };
  }
  @Get('busy')
  busy() {
    throw new RateLimitedError({ code: 'TOO_MANY', message: 'slow down' }, 7);
  }
}

const JSON_HEADERS = { 'content-type': 'application/json' };

describe('createHttpApp', () => {
  const logs: Record<string, unknown>[] = [];
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const config = loadAppConfig({ BODY_LIMIT_MB: '1' });
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        callback();
      },
    });
    const logger = createLogger({ level: 'info', service: 'test', destination });
    @Module({ imports: [PlatformModule.forRoot(config, logger)], controllers: [ProbeController] })
    class TestModule {}
    app = await createHttpApp(TestModule, config, logger);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  const inject = (options: InjectOptions) => app.getHttpAdapter().getInstance().inject(options);

  it('answers malformed JSON with 400 INVALID_JSON and the request id as trackingId', async () => {
    const res = await inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-abcdef12' },
      payload: '{"type": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-request-id']).toBe('req-abcdef12');
    expect(res.json()).toMatchObject({ trackingId: 'req-abcdef12', error: { code: 'INVALID_JSON' } });
  });

  it('accepts an empty body with a JSON content type (the pingram client sends one on GET/DELETE)', async () => {
    const res = await inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ body: null });
  });

  it('reads a text/plain body as JSON, as browsers label a string body, with the same checks', async () => {
    const ok = await inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: '{"type":"a"}',
    });
    expect(ok.json()).toEqual({ body: { type: 'a' } });
    const poisoned = await inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'text/plain' },
      payload: '{"__proto__": {"admin": true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json().error.code).toBe('INVALID_JSON');
  });

  it('rejects prototype poisoning', async () => {
    const res = await inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"admin": true}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('INVALID_JSON');
  });

  it('refuses JSON nested deeper than the limit with 400, without recursing on it', async () => {
    const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const ok = await inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: deep(MAX_JSON_DEPTH),
    });
    expect(ok.statusCode).toBe(201);
    const res = await inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: `{"parameters":${deep(100_000)}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'INVALID_JSON',
      message: expect.stringContaining('deeper'),
    });
  });

  it('does not believe X-Forwarded-For unless TRUST_PROXY says so', async () => {
    const forged = {
      method: 'GET' as const,
      url: '/probe/ip',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    };
    expect((await inject(forged)).json()).toEqual({ ip: '127.0.0.1' });
    const config = loadAppConfig({ TRUST_PROXY: '1' });
    @Module({
      imports: [PlatformModule.forRoot(config, createLogger({ level: 'silent', service: 't' }))],
      controllers: [ProbeController],
    })
    class ProxiedModule {}
    const proxied = await createHttpApp(
      ProxiedModule,
      config,
      createLogger({ level: 'silent', service: 't' }),
    );
    await proxied.init();
    try {
      const res = await proxied.getHttpAdapter().getInstance().inject(forged);
      expect(res.json()).toEqual({ ip: '203.0.113.9' });
    } finally {
      await proxied.close();
    }
  });

  it('answers 429 with Retry-After and the error body', async () => {
    const res = await inject({ method: 'GET', url: '/probe/busy' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().error).toMatchObject({ code: 'TOO_MANY' });
  });

  it('measures JSON depth iteratively', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({ a: [1, { b: 2 }] })).toBe(3);
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonDepth(deep, 10)).toBe(11);
  });

  it('answers bodies over the limit with 413 and the error body', async () => {
    const res = await inject({
      method: 'POST',
      url: '/probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ blob: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('keeps the exact body text of a route that asks for it, within that route’s own limit', async () => {
    const text = '{ "b": 1,\n  "a": "é" }';
    const signed = await app.inject({
      method: 'POST',
      url: '/probe/signed',
      headers: JSON_HEADERS,
      payload: text,
    });
    expect(signed.json()).toEqual({ raw: text, body: null });
    // Unparsed: what the strict parser refuses (here a prototype key) still reaches the route,
    // whose signature check decides.
    const poisoned = '{"__proto__":{"x":1}}';
    const unparsed = await app.inject({
      method: 'POST',
      url: '/probe/signed',
      headers: JSON_HEADERS,
      payload: poisoned,
    });
    expect(unparsed.statusCode).toBe(201);
    expect(unparsed.json()).toEqual({ raw: poisoned, body: null });
    const tooLong = await app.inject({
      method: 'POST',
      url: '/probe/signed',
      headers: JSON_HEADERS,
      payload: JSON.stringify({ a: 'x'.repeat(64) }),
    });
    expect(tooLong.statusCode).toBe(413);
    expect(tooLong.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    const echoed = await app.inject({
      method: 'POST',
      url: '/probe/echo',
      headers: JSON_HEADERS,
      payload: { a: 'x'.repeat(64) },
    });
    expect(echoed.json()).toEqual({ body: { a: 'x'.repeat(64) } });
  });

  it('maps validation and domain errors', async () => {
    const validation = await inject({ method: 'POST', url: '/probe/validate', payload: { type: 3 } });
    expect(validation.statusCode).toBe(400);
    expect(validation.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('type'),
    });

    const missing = await inject({ method: 'GET', url: '/probe/missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({
      code: 'NOT_FOUND',
      message: 'no such thing',
      fix: 'check the id',
    });

    const invalid = await inject({ method: 'GET', url: '/probe/invalid' });
    expect(invalid.statusCode).toBe(400);
  });

  it('answers unknown routes with 404 and the error body', async () => {
    const res = await inject({ method: 'GET', url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ trackingId: expect.any(String), error: { code: 'NOT_FOUND' } });
  });

  it("answers a malformed URL with 400 and the error body, not Fastify's own", async () => {
    for (const url of ['/probe/item/%C0%AF', '/types/%C0%AF', '/probe/item/%E0%A4%A', '/%FF']) {
      const res = await inject({ method: 'GET', url, headers: { 'x-request-id': 'req-badurl01' } });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-request-id']).toBe('req-badurl01');
      expect(res.json()).toEqual({
        trackingId: 'req-badurl01',
        error: {
          code: 'INVALID_URL',
          message: expect.stringContaining('percent-encoded'),
          fix: expect.any(String),
        },
      });
      expect(res.body).not.toContain('FST_');
    }
  });

  it('answers a path parameter over the length limit with 414 and the error body', async () => {
    const res = await inject({ method: 'GET', url: `/probe/item/${'x'.repeat(5_000)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toMatchObject({ trackingId: expect.any(String), error: { code: 'URI_TOO_LONG' } });
    expect(res.body).not.toContain('FST_');
  });

  it('answers crashes with 500, logs the cause under an error id, and leaks nothing', async () => {
    const res = await inject({ method: 'GET', url: '/probe/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internals');
    const errorId = /Internal error ([0-9a-f-]{36})/.exec(res.json().error.message)?.[1];
    expect(errorId).toBeDefined();
    const line = logs.find((l) => l.errorId === errorId);
    expect(line).toMatchObject({ level: 'error', err: { message: 'secret internals' } });
  });

  it('serves /status and reports readiness from the registered probes', async () => {
    expect((await inject({ method: 'GET', url: '/status' })).json()).toEqual({ message: 'ok' });
    expect((await inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);

    const registry = app.get(ReadinessRegistry);
    registry.register({ name: 'kafka', probe: () => Promise.reject(new Error('broker down')) });
    const res = await inject({ method: 'GET', url: '/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(JSON.stringify(res.json())).toContain('broker down');
  });
});
