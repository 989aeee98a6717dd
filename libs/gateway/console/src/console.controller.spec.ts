import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, createLogger, loadAppConfig, PlatformModule } from '@notify/platform';
import { tempDir } from '@notify/testing';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ConsoleConfigController } from './console-config.controller';
import { ConsoleController } from './console.controller';
import { CONSOLE_BUILD_DIR } from './console.tokens';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

async function fixtureBuild(dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(
    join(dir, 'index.html'),
    '<html><head><meta name="csp-nonce" content="__CSP_NONCE__"><script type="module" src="/console/assets/index-abc.js"></script></head></html>',
  );
  await writeFile(
    join(dir, 'frame.html'),
    '<html><script type="module" src="/console/assets/frame-def.js"></script></html>',
  );
  await writeFile(join(dir, 'assets', 'index-abc.js'), SCRIPT);
  await writeFile(join(dir, 'assets', 'index-abc.css'), 'body{color:red}');
  await writeFile(join(dir, 'secret.txt'), 'not an asset');
}

async function appServing(dir: string, env: Record<string, string> = {}): Promise<NestFastifyApplication> {
  const config = loadAppConfig(env);
  const logger = createLogger({ level: 'silent', service: 'test' });
  @Module({
    imports: [PlatformModule.forRoot(config, logger)],
    controllers: [ConsoleConfigController, ConsoleController],
    providers: [{ provide: CONSOLE_BUILD_DIR, useValue: dir }],
  })
  class TestModule {}
  const app = await createHttpApp(TestModule, config, logger);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

describe('ConsoleController', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let app: NestFastifyApplication;
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    dir = await tempDir('notify-console-');
    await fixtureBuild(dir.path);
    app = await appServing(dir.path, { JWT_SECRET: 'x'.repeat(32) });
  });
  afterAll(async () => {
    await app.close();
    await dir.remove();
  });

  it('serves the page with a fresh nonce that its Content-Security-Policy names', async () => {
    const [first, second] = [await get('/console'), await get('/console')];
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['x-frame-options']).toBe('DENY');
    const nonce = /content="([^"]+)"/.exec(first.body)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const policy = String(first.headers['content-security-policy']);
    expect(policy).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe');
    expect(/content="([^"]+)"/.exec(second.body)?.[1]).not.toBe(nonce);
  });

  it('answers every client-side route with the page, so a deep link or a reload works', async () => {
    for (const path of [
      '/console/',
      '/console/logs',
      '/console/logs/4b8c2f1e-0000-4000-8000-000000000000',
      '/console/sign-in',
    ]) {
      const res = await get(path);
      expect([path, res.statusCode]).toEqual([path, 200]);
      expect(res.body).toContain('csp-nonce');
    }
  });

  it('serves hashed assets compressed as the client accepts, cached for a year', async () => {
    const br = await get('/console/assets/index-abc.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['vary']).toBe('accept-encoding');
    expect(br.headers['access-control-allow-origin']).toBe('*');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await get('/console/assets/index-abc.js', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/console/assets/index-abc.css', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(plain.body).toBe('body{color:red}');
  });

  it('answers 404 with the error body for an unknown asset, a file outside assets, or a path that climbs', async () => {
    for (const path of [
      '/console/assets/nope.js',
      '/console/secret.txt',
      '/console/assets/..%2Fsecret.txt',
      '/console/assets/%2e%2e%2findex.html',
      '/console/x/../../package.json',
    ]) {
      const res = await get(path);
      expect([path, res.statusCode]).toEqual([path, 404]);
      expect(res.body).not.toContain('not an asset');
      expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('serves the email preview frame with its own policy: sandboxable, framed by the console only', async () => {
    const res = await get('/console/frame.html');
    expect(res.statusCode).toBe(200);
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('connect-src');
  });

  it('tells the sign-in page which member sign-ins this deployment offers', async () => {
    const res = await get('/console/config');
    expect(res.json()).toEqual({ linkSignIn: true, jwtSignIn: true, devMode: false });
  });
});

describe('ConsoleController without a build or turned off', () => {
  it('answers 503 CONSOLE_NOT_BUILT when there is no build, and the config still answers', async () => {
    const dir = await tempDir('notify-console-empty-');
    const app = await appServing(dir.path);
    try {
      const inject = app.getHttpAdapter().getInstance();
      const res = await inject.inject({ method: 'GET', url: '/console/logs' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: { code: 'CONSOLE_NOT_BUILT' } });
      const config = await inject.inject({ method: 'GET', url: '/console/config' });
      expect(config.json()).toEqual({ linkSignIn: false, jwtSignIn: false, devMode: false });
    } finally {
      await app.close();
      await dir.remove();
    }
  });

  it('answers 404 on every console path with CONSOLE_ENABLED=false', async () => {
    const dir = await tempDir('notify-console-off-');
    await fixtureBuild(dir.path);
    const app = await appServing(dir.path, { CONSOLE_ENABLED: 'false' });
    try {
      for (const url of ['/console', '/console/logs', '/console/assets/index-abc.js', '/console/config']) {
        const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url });
        expect([url, res.statusCode]).toEqual([url, 404]);
      }
    } finally {
      await app.close();
      await dir.remove();
    }
  });
});
