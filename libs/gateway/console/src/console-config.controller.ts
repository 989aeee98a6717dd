import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { openApi } from '@notify/gateway-openapi';
import { type AppConfig, InjectConfig, Public } from '@notify/platform';
import { namedSchema } from '@notify/util';
import { z } from 'zod';
import { ConsoleEnabledGuard } from './console-enabled.guard';

const consoleConfigSchema = z.object({
  linkSignIn: z.boolean().describe('Members may ask for a sign-in link by email (JWT_SECRET is set)'),
  jwtSignIn: z.boolean().describe("Members may exchange a token from the organisation's identity provider"),
  devMode: z.boolean().describe('The all-in-one runs local provider peers and a dev outbox'),
});
namedSchema('ConsoleConfig', consoleConfigSchema);

/** What the console's sign-in page offers on this deployment. Public: it is read before signing in. */
@ApiTags('Console')
@Public()
@UseGuards(ConsoleEnabledGuard)
@Controller('console/config')
export class ConsoleConfigController {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  @Get()
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: "The console's sign-in options on this deployment",
    operationId: 'getConsoleConfig',
  })
  @ApiOkResponse({ schema: openApi(consoleConfigSchema, 'output') })
  get(): z.infer<typeof consoleConfigSchema> {
    // A console session is signed with JWT_SECRET, so both member sign-ins need it.
    const sessions = this.config.identity.jwt.secret !== undefined;
    return { linkSignIn: sessions, jwtSignIn: sessions, devMode: this.config.dev.enabled };
  }
}
