import { Controller, Get, Logger, type OnModuleInit, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@notify/platform';
import { NotFoundError, ServiceUnavailableError } from '@notify/util';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { chooseEncoding, ConsoleBuild } from './console-build';
import { COMMON_HEADERS, FRAME_POLICY, pagePolicy } from './console.headers';
import { InjectConsoleBuildDir } from './console.tokens';
import { ConsoleEnabledGuard } from './console-enabled.guard';

/**
 * The web console's static build at /console: the page (for every client-side route, so a deep link
 * or a reload works), its content-hashed assets (cached for a year), and the email preview frame.
 */
@ApiExcludeController()
@Public()
@UseGuards(ConsoleEnabledGuard)
@Controller('console')
export class ConsoleController implements OnModuleInit {
  private readonly logger = new Logger('Console');
  private build: ConsoleBuild | null = null;

  constructor(@InjectConsoleBuildDir() private readonly dir: string) {}

  async onModuleInit(): Promise<void> {
    this.build = await ConsoleBuild.load(this.dir);
    if (this.build === null)
      this.logger.warn(`No console build in ${this.dir}: /console answers 503 until npm run build.`);
  }

  @Get()
  page(@Res() reply: FastifyReply): void {
    const { html, nonce } = this.built().pageWithNonce();
    void reply
      .headers({
        ...COMMON_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': pagePolicy(nonce),
        'x-frame-options': 'DENY',
      })
      .send(html);
  }

  @Get('frame.html')
  frame(@Res() reply: FastifyReply): void {
    void reply
      .headers({
        ...COMMON_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': FRAME_POLICY,
        'x-frame-options': 'SAMEORIGIN',
      })
      .send(this.built().frame);
  }

  @Get('assets/:file')
  async asset(
    @Param('file') file: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const asset = this.built().asset(file);
    if (asset === undefined)
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message: `No console asset ${file.slice(0, 100)}.`,
        fix: 'Reload the console: a newer version may have replaced it.',
      });
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    const body = await asset.bytes(encoding);
    void reply
      .headers({
        ...COMMON_HEADERS,
        'content-type': asset.type,
        'cache-control': 'public, max-age=31536000, immutable',
        // The email preview frame runs sandboxed in an opaque origin, so its module script is a
        // cross-origin (CORS) load. Assets are public build output, read without credentials.
        'access-control-allow-origin': '*',
        vary: 'accept-encoding',
        ...(encoding !== 'identity' && { 'content-encoding': encoding }),
      })
      .send(body);
  }

  /** A client-side route (no file extension): the page, which routes itself. */
  @Get('*')
  route(@Param('*') path: string, @Res() reply: FastifyReply): void {
    const last = path.split('/').pop() ?? '';
    if (last.includes('.'))
      throw new NotFoundError({ code: 'NOT_FOUND', message: `No console file ${last.slice(0, 100)}.` });
    this.page(reply);
  }

  private built(): ConsoleBuild {
    if (this.build !== null) return this.build;
    throw new ServiceUnavailableError({
      code: 'CONSOLE_NOT_BUILT',
      message: 'The console has not been built.',
      fix: 'Run npm run build (npm start does), then restart the service.',
    });
  }
}
