import { Controller, Get, Header, Param, type OnModuleInit } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@notify/platform';
import { NotFoundError } from '@notify/util';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The demo page, beside this file in the sources and in the build. */
const PAGE = join(__dirname, 'inbox.html');
/**
 * The browser client library's committed ESM build (libs/inapp-client/dist): three levels up from
 * here both in the sources (libs/gateway/dev-outbox/src) and in the build (dist/libs/…).
 */
const CLIENT_DIR = join(__dirname, '..', '..', '..', 'inapp-client', 'dist');

/**
 * `/dev/inbox` (all-in-one only): a demo in-app inbox built on our browser library, served with the
 * library itself (`/dev/inbox/client.js` and the modules it imports). The page holds no secret: its
 * calls authenticate as the end user it is opened for (`?clientId=…&userId=…&hashedUserId=…`).
 */
@ApiExcludeController()
@Public()
@Controller('dev/inbox')
export class DevInboxController implements OnModuleInit {
  private page = '';
  private readonly modules = new Map<string, string>();

  async onModuleInit(): Promise<void> {
    this.page = await readFile(PAGE, 'utf8');
    for (const file of await readdir(CLIENT_DIR))
      if (file.endsWith('.js')) this.modules.set(file, await readFile(join(CLIENT_DIR, file), 'utf8'));
    const entry = this.modules.get('index.js');
    if (entry !== undefined) this.modules.set('client.js', entry);
  }

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  inbox(): string {
    return this.page;
  }

  @Get(':file')
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'no-store')
  module(@Param('file') file: string): string {
    const source = this.modules.get(file);
    if (source === undefined)
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message: `No module ${file.slice(0, 100)} in the inbox page's library.`,
        fix: 'Load /dev/inbox/client.js.',
      });
    return source;
  }
}
