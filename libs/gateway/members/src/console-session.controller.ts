import { Body, Controller, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type ConsoleSessionBody,
  consoleSessionBodySchema,
  consoleSignInBodySchema,
  roleSchema,
} from '@notify/domain';
import {
  type Caller,
  CurrentCaller,
  expiredSessionCookie,
  sessionCookie,
  sessionCookieOf,
} from '@notify/gateway-auth';
import { ApiErrors, ApiMoreErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import { Public, ZodPipe } from '@notify/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ConsoleMember } from './console-accounts';
import { EndConsoleSessionUseCase } from './end-console-session.usecase';
import { type ConsoleCaller, GetConsoleSessionUseCase } from './get-console-session.usecase';
import { RequestSignInLinkUseCase } from './request-sign-in-link.usecase';
import { StartConsoleSessionUseCase } from './start-console-session.usecase';

const accountsSchema = z.array(z.object({ accountId: z.string(), role: roleSchema }));
const consoleMemberSchema = z.object({ userId: z.string(), email: z.string(), accounts: accountsSchema });
const consoleCallerSchema = z.discriminatedUnion('kind', [
  consoleMemberSchema.extend({ kind: z.literal('member') }),
  z.object({ kind: z.literal('key'), accountId: z.string(), envId: z.string() }),
]);
namedSchema('ConsoleSignInRequest', consoleSignInBodySchema);
namedSchema('ConsoleSessionRequest', consoleSessionBodySchema);
namedSchema('ConsoleMember', consoleMemberSchema);
namedSchema('ConsoleCaller', consoleCallerSchema);

const COOKIE_NOTE =
  'The session is the `__Host-notify_session` cookie (HttpOnly; Secure; SameSite=Strict; Path=/; 12 hours). Requests authenticated by it must carry `x-notify-console: 1`, and an Origin, when sent, must be this service’s own.';

/**
 * `/console/sign-in`, `/console/session`, `/console/sign-out`: members' sessions of the web console.
 * A mailed single-use link (or the identity provider's JWT) is exchanged for a session cookie; the
 * console then calls the public API with it. These routes need no credentials (the link, JWT or
 * cookie is the proof), except reading the session, which takes any caller.
 */
@ApiTags('Console')
@ApiErrors()
@Controller('console')
export class ConsoleSessionController {
  constructor(
    private readonly requestLink: RequestSignInLinkUseCase,
    private readonly startSession: StartConsoleSessionUseCase,
    private readonly getSession: GetConsoleSessionUseCase,
    private readonly endSession: EndConsoleSessionUseCase,
  ) {}

  @Post('sign-in')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Ask for a single-use sign-in link to the web console (mailed to a member; the same answer for anyone else)',
    operationId: 'requestConsoleSignIn',
    security: [],
  })
  @ApiBody({ schema: openApi(consoleSignInBodySchema) })
  @ApiOkResponse({ schema: openApi(z.object({ message: z.string() }), 'output') })
  signIn(
    @Body(new ZodPipe(consoleSignInBodySchema)) body: { email: string },
    @Req() request: FastifyRequest,
  ): Promise<{ message: string }> {
    return this.requestLink.execute({ email: body.email, address: request.ip });
  }

  @Post('session')
  @Public()
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: 'Start a console session with a sign-in link’s token or an identity provider’s JWT',
    description: COOKIE_NOTE,
    operationId: 'startConsoleSession',
    security: [],
  })
  @ApiBody({ schema: openApi(consoleSessionBodySchema) })
  @ApiOkResponse({ schema: openApi(consoleMemberSchema, 'output') })
  async start(
    @Body(new ZodPipe(consoleSessionBodySchema)) body: ConsoleSessionBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleMember> {
    const { member, token } = await this.startSession.execute(body, request.ip);
    void reply.header('set-cookie', sessionCookie(token));
    return member;
  }

  @Get('session')
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: 'Who is calling: a member with their accounts and roles, or an API key’s environment',
    description: COOKIE_NOTE,
    operationId: 'getConsoleSession',
  })
  @ApiOkResponse({ schema: openApi(consoleCallerSchema, 'output') })
  session(@CurrentCaller() caller: Caller): Promise<ConsoleCaller> {
    return this.getSession.execute(caller);
  }

  @Post('sign-out')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'End the console session of the cookie, on every replica, and clear the cookie',
    operationId: 'endConsoleSession',
    security: [],
  })
  @ApiMoreErrors(429)
  @ApiOkResponse({ schema: openApi(z.object({ success: z.boolean() }), 'output') })
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ success: true }> {
    const ended = await this.endSession.execute(sessionCookieOf(request.headers.cookie), request.ip);
    void reply.header('set-cookie', expiredSessionCookie());
    return ended;
  }
}
