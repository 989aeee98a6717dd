import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Public } from '@notify/platform';
import { aMemberToken } from '@notify/testing';
import {
  DomainError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
} from '@notify/util';
import { AuthGuard } from './auth.guard';
import { Administered, RequiresRole } from './roles.decorator';
import type { AuthenticatedRequest } from './tenant';
import { type AuthHarness, authHarness } from './testing/auth.harness';

/* Routes as controllers declare them; the guard reads only their metadata. */
class SendsController {
  send(): string {
    return 'send';
  }
}
@Administered()
class TemplatesController {
  list(): string {
    return 'list';
  }
  @RequiresRole('member')
  preview(): string {
    return 'preview';
  }
}
@RequiresRole('admin')
class MembersController {
  list(): string {
    return 'list';
  }
  @RequiresRole('owner')
  setRole(): string {
    return 'setRole';
  }
}
@Public()
class StatusController {
  status(): string {
    return 'status';
  }
}

type Route = [controller: { prototype: object }, handler: string, method: string];
const SEND: Route = [SendsController, 'send', 'POST'];
const LIST_TEMPLATES: Route = [TemplatesController, 'list', 'GET'];
const CREATE_TEMPLATE: Route = [TemplatesController, 'list', 'POST'];
const PREVIEW_TEMPLATE: Route = [TemplatesController, 'preview', 'POST'];
const LIST_MEMBERS: Route = [MembersController, 'list', 'GET'];
const SET_ROLE: Route = [MembersController, 'setRole', 'PATCH'];
const STATUS: Route = [StatusController, 'status', 'GET'];

describe('AuthGuard', () => {
  let h: AuthHarness;
  let guard: AuthGuard;
  let key: string;
  let owner: string;
  let admin: string;
  let member: string;

  beforeEach(async () => {
    h = await authHarness(3);
    guard = new AuthGuard(new Reflector(), h.resolver, h.members, h.failures, h.sessions, h.config);
    key = await h.aKey('env-1');
    owner = await h.aMember('owner@example.com', 'acc-1', 'owner');
    admin = await h.aMember('admin@example.com', 'acc-1', 'admin');
    member = await h.aMember('member@example.com', 'acc-1', 'member');
  });
  afterEach(() => h.close());

  let requests = 0;
  /** Runs the guard for `route` with these credentials; answers the request (caller, tenant) or the error. */
  const call = async (
    [controller, handler, method]: Route,
    authorization: string | undefined,
    query: Record<string, unknown> = {},
    ip = `192.0.2.${++requests % 250}`,
    params: Record<string, string> = {},
    headers: Record<string, string> = {},
  ): Promise<AuthenticatedRequest | DomainError> => {
    const request = {
      method,
      protocol: 'http',
      headers: { authorization, host: 'notify.test:3000', ...headers },
      query,
      params,
      ip,
    } as unknown as AuthenticatedRequest;
    const context = {
      getHandler: () => (controller.prototype as Record<string, unknown>)[handler],
      getClass: () => controller,
      switchToHttp: () => ({ getRequest: () => request }),
    } as unknown as ExecutionContext;
    try {
      expect(await guard.canActivate(context)).toBe(true);
      return request;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  };
  const bearer = (token: string) => `Bearer ${token}`;
  const basic = (user: string, password: string) =>
    `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const expectAllowed = async (result: Promise<AuthenticatedRequest | DomainError>) =>
    expect(await result).not.toBeInstanceOf(DomainError);
  const expectForbidden = async (result: Promise<AuthenticatedRequest | DomainError>, message: RegExp) => {
    const error = await result;
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ code: 'FORBIDDEN', fix: expect.any(String) });
    expect((error as ForbiddenError).message).toMatch(message);
  };

  describe('roles', () => {
    it('lets every member call a route without a role (member by default)', async () => {
      for (const token of [owner, admin, member]) await expectAllowed(call(SEND, bearer(token)));
    });

    it('on an @Administered controller: GETs need a member, writes an admin', async () => {
      await expectAllowed(call(LIST_TEMPLATES, bearer(member)));
      await expectForbidden(
        call(CREATE_TEMPLATE, bearer(member)),
        /^This operation needs the admin role; you are a member of this account\.$/,
      );
      await expectAllowed(call(CREATE_TEMPLATE, bearer(admin)));
      await expectAllowed(call(CREATE_TEMPLATE, bearer(owner)));
    });

    it('takes @RequiresRole of the handler over its controller’s, and over @Administered', async () => {
      await expectAllowed(call(PREVIEW_TEMPLATE, bearer(member)));
      await expectForbidden(call(LIST_MEMBERS, bearer(member)), /needs the admin role; you are a member/);
      await expectAllowed(call(LIST_MEMBERS, bearer(admin)));
      await expectForbidden(call(SET_ROLE, bearer(admin)), /needs the owner role; you are an admin/);
      await expectAllowed(call(SET_ROLE, bearer(owner)));
    });

    it('lets a secret key pass member and admin routes, never owner ones', async () => {
      for (const route of [SEND, LIST_TEMPLATES, CREATE_TEMPLATE, LIST_MEMBERS])
        await expectAllowed(call(route, bearer(key)));
      await expectForbidden(call(SET_ROLE, bearer(key)), /an API key may not/);
    });

    it('refuses a public key (403) on every server route', async () => {
      const publicKey = await h.aKey('env-1', 'public');
      for (const route of [SEND, LIST_TEMPLATES, PREVIEW_TEMPLATE, LIST_MEMBERS, SET_ROLE])
        await expectForbidden(call(route, bearer(publicKey)), /public key may only call the end-user/);
      await expectForbidden(call(SEND, basic('env-1', publicKey)), /public key/);
    });

    it('lets anyone call a @Public() route, without credentials', async () => {
      await expectAllowed(call(STATUS, undefined));
    });
  });

  describe('where the caller acts', () => {
    it('gives a key its own environment as the tenant, also when ?envId= names it', async () => {
      for (const query of [{}, { envId: 'env-1' }, { envId: '' }]) {
        const request = (await call(SEND, bearer(key), query)) as AuthenticatedRequest;
        expect(request.tenant).toEqual({
          accountId: 'acc-1',
          envId: 'env-1',
          keyId: expect.any(String),
          test: false,
        });
        expect(request.caller).toMatchObject({ kind: 'key', keyType: 'secret', envId: 'env-1' });
      }
    });

    it('answers 404 when a key names another environment, of its account or another', async () => {
      for (const envId of ['env-1b', 'env-2', 'nope']) {
        const error = await call(SEND, bearer(key), { envId });
        expect(error).toBeInstanceOf(NotFoundError);
        expect(error).toMatchObject({ code: 'NOT_FOUND', message: `No environment ${envId} for this key.` });
      }
    });

    it('refuses (400) ?envId= or ?accountId= given twice or too long, for keys and members', async () => {
      for (const [token, query] of [
        [key, { envId: ['env-1', 'env-2'] }],
        [key, { envId: 'e'.repeat(201) }],
        [owner, { envId: ['env-1', 'env-2'] }],
        [owner, { accountId: ['acc-1', 'acc-2'] }],
      ] as const) {
        const error = await call(SEND, bearer(token), query);
        expect(error).toBeInstanceOf(InvalidRequestError);
        expect(error).toMatchObject({ code: 'VALIDATION_ERROR' });
      }
    });

    it('gives a member the environment of ?envId= as the tenant, and none without it', async () => {
      const request = (await call(SEND, bearer(admin), { envId: 'env-1b' })) as AuthenticatedRequest;
      expect(request.tenant).toEqual({
        accountId: 'acc-1',
        envId: 'env-1b',
        keyId: expect.stringMatching(/^member:usr_/),
        test: false,
      });
      expect(request.caller).toMatchObject({
        kind: 'member',
        accountId: 'acc-1',
        role: 'admin',
        email: 'admin@example.com',
      });
      const bare = (await call(SEND, bearer(admin))) as AuthenticatedRequest;
      expect(bare.tenant).toBeUndefined();
      expect(bare.caller).toMatchObject({ kind: 'member', accountId: 'acc-1' });
    });

    it('takes the environment a path names (/{clientId}/…) for a member who names none in the query', async () => {
      const other = await h.aMember('admin@example.com', 'acc-2', 'owner');
      const byPath = (await call(SEND, bearer(other), {}, undefined, {
        clientId: 'env-2',
      })) as AuthenticatedRequest;
      expect(byPath.caller).toMatchObject({ accountId: 'acc-2', role: 'owner' });
      expect(byPath.tenant).toMatchObject({ accountId: 'acc-2', envId: 'env-2' });
      const byQuery = (await call(SEND, bearer(other), { envId: 'env-1' }, undefined, {
        clientId: 'env-2',
      })) as AuthenticatedRequest;
      expect(byQuery.caller).toMatchObject({ accountId: 'acc-1', role: 'admin' });
    });

    it('answers 404 for a member naming another account’s environment or account', async () => {
      expect(await call(SEND, bearer(owner), { envId: 'env-2' })).toBeInstanceOf(NotFoundError);
      expect(await call(SEND, bearer(owner), { accountId: 'acc-2' })).toBeInstanceOf(NotFoundError);
    });
  });

  describe('credentials', () => {
    it('answers 401 for missing credentials, an unknown key, other schemes and a bad JWT', async () => {
      const bad = aMemberToken({ email: 'owner@example.com', secret: 'w'.repeat(40) });
      for (const [authorization, message] of [
        [undefined, 'Missing credentials.'],
        [bearer(`notify_sk_${'A'.repeat(32)}`), 'Invalid or revoked API key.'],
        ['Token abc', 'Missing credentials.'],
        ['Bearer', 'Missing credentials.'],
        [bearer(bad), "The token's signature does not verify."],
      ] as const) {
        const error = await call(SEND, authorization);
        expect(error).toBeInstanceOf(UnauthorizedError);
        expect(error).toMatchObject({ code: 'UNAUTHORIZED', message });
      }
    });

    it('checks a JWT before the query: a bad token with a bad ?envId= is 401', async () => {
      const bad = aMemberToken({ email: 'owner@example.com', secret: 'w'.repeat(40) });
      expect(await call(SEND, bearer(bad), { envId: ['a', 'b'] })).toBeInstanceOf(UnauthorizedError);
    });

    it('takes Basic clientId:apiKey and Basic clientId:clientSecret as that environment’s key', async () => {
      for (const authorization of [basic('env-1', key), basic('env-1', 'secret-of-env-1')]) {
        const request = (await call(SEND, authorization)) as AuthenticatedRequest;
        expect(request.tenant).toMatchObject({ accountId: 'acc-1', envId: 'env-1' });
      }
      expect(await call(SEND, basic('env-1b', key))).toBeInstanceOf(UnauthorizedError);
      expect(await call(SEND, basic('env-1b', 'secret-of-env-1'))).toBeInstanceOf(UnauthorizedError);
      expect(await call(SEND, basic('', 'secret-of-env-1'))).toBeInstanceOf(UnauthorizedError);
    });

    it('counts failed authentications (401) per address, not 403s or 404s, and then refuses with 429', async () => {
      const from = '203.0.113.7';
      for (let i = 0; i < 5; i++) {
        expect(await call(CREATE_TEMPLATE, bearer(member), {}, from)).toBeInstanceOf(ForbiddenError);
        expect(await call(SEND, bearer(key), { envId: 'env-2' }, from)).toBeInstanceOf(NotFoundError);
        expect(
          await call(SEND, bearer(aMemberToken({ email: 'stranger@example.com' })), {}, from),
        ).toBeInstanceOf(ForbiddenError);
      }
      await expectAllowed(call(SEND, bearer(key), {}, from));
      for (let i = 0; i < 3; i++)
        expect(await call(SEND, undefined, {}, from)).toBeInstanceOf(UnauthorizedError);
      const limited = await call(SEND, 'Bearer nope', {}, from);
      expect(limited).toBeInstanceOf(RateLimitedError);
      expect(limited).toMatchObject({ code: 'TOO_MANY_FAILED_AUTHENTICATIONS' });
      // Blocked until the minute ends, even with good credentials; other addresses are not.
      expect(await call(SEND, bearer(key), {}, from)).toBeInstanceOf(RateLimitedError);
      await expectAllowed(call(SEND, bearer(key), {}, '203.0.113.8'));
      h.clock.advance(60_000);
      await expectAllowed(call(SEND, bearer(key), {}, from));
    });
  });

  describe('console sessions (the session cookie)', () => {
    const CONSOLE = { 'x-notify-console': '1' };
    /** A session of the person of `email` (made a member by `aMember` first). */
    const sessionOf = async (email: string) => {
      const person = await h.people.findByEmail(email);
      if (person === undefined) throw new Error(`no person ${email}`);
      return h.sessions.issue({ userId: person.userId, email });
    };
    const cookie = (token: string) => ({ cookie: `theme=dark; __Host-notify_session=${token}; lang=en` });
    const withSession = (
      route: Route,
      token: string,
      headers: Record<string, string> = CONSOLE,
      query: Record<string, unknown> = {},
      ip?: string,
    ) => call(route, undefined, query, ip, {}, { ...cookie(token), ...headers });
    const expectRefused = async (result: Promise<AuthenticatedRequest | DomainError>, message: RegExp) => {
      const error = await result;
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ code: 'UNAUTHORIZED', fix: expect.any(String) });
      expect((error as UnauthorizedError).message).toMatch(message);
    };

    it('makes the member of a session the caller, in the environment of ?envId= as with a JWT', async () => {
      const { token } = await sessionOf('admin@example.com');
      const request = (await withSession(SEND, token, CONSOLE, { envId: 'env-1b' })) as AuthenticatedRequest;
      expect(request.caller).toMatchObject({ kind: 'member', accountId: 'acc-1', role: 'admin' });
      expect(request.tenant).toEqual({
        accountId: 'acc-1',
        envId: 'env-1b',
        keyId: expect.stringMatching(/^member:usr_/),
        test: false,
      });
    });

    it('holds the session to the role of its member, read at each request, and to their accounts (404)', async () => {
      const { token } = await sessionOf('member@example.com');
      await expectForbidden(withSession(CREATE_TEMPLATE, token), /needs the admin role; you are a member/);
      expect(await withSession(SEND, token, CONSOLE, { envId: 'env-2' })).toBeInstanceOf(NotFoundError);
      await h.aMember('member@example.com', 'acc-2', 'admin');
      await expectAllowed(withSession(CREATE_TEMPLATE, token, CONSOLE, { accountId: 'acc-2' }));
    });

    it('refuses (401) a session cookie without the console header', async () => {
      const { token } = await sessionOf('owner@example.com');
      await expectRefused(withSession(SEND, token, {}), /needs the header x-notify-console: 1/);
      await expectRefused(withSession(SEND, token, { 'x-notify-console': 'yes' }), /x-notify-console/);
    });

    it('refuses (401) an Origin other than PUBLIC_URL’s or the Host’s', async () => {
      const { token } = await sessionOf('owner@example.com');
      await expectAllowed(withSession(SEND, token, { ...CONSOLE, origin: 'http://notify.test:3000' }));
      for (const origin of [
        'https://evil.example',
        'null',
        'http://notify.test:3001',
        'https://notify.test:3000',
      ])
        await expectRefused(withSession(SEND, token, { ...CONSOLE, origin }), /not accepted from origin/);
      const behindProxy = await authHarness(30, { PUBLIC_URL: 'https://console.example/notify' });
      try {
        const guarded = new AuthGuard(
          new Reflector(),
          behindProxy.resolver,
          behindProxy.members,
          behindProxy.failures,
          behindProxy.sessions,
          behindProxy.config,
        );
        await behindProxy.aMember('owner@example.com', 'acc-1', 'owner');
        const person = await behindProxy.people.findByEmail('owner@example.com');
        const session = behindProxy.sessions.issue({
          userId: person?.userId ?? '',
          email: 'owner@example.com',
        });
        const request = {
          method: 'GET',
          protocol: 'http',
          headers: {
            ...CONSOLE,
            ...cookie(session.token),
            host: 'internal:3000',
            origin: 'https://console.example',
          },
          query: {},
          params: {},
          ip: '192.0.2.200',
        } as unknown as AuthenticatedRequest;
        const context = {
          getHandler: () => SendsController.prototype.send,
          getClass: () => SendsController,
          switchToHttp: () => ({ getRequest: () => request }),
        } as unknown as ExecutionContext;
        expect(await guarded.canActivate(context)).toBe(true);
        expect(request.caller).toMatchObject({ kind: 'member', role: 'owner' });
      } finally {
        await behindProxy.close();
      }
    });

    it('refuses (401) a signed-out session, an expired one, and a forged one', async () => {
      const { token, session } = await sessionOf('owner@example.com');
      await expectAllowed(withSession(SEND, token));
      await h.sessions.revoke(session);
      await expectRefused(withSession(SEND, token), /signed out/);
      const later = await sessionOf('owner@example.com');
      h.clock.advance(12 * 3_600_000 - 1_000);
      await expectAllowed(withSession(SEND, later.token));
      h.clock.advance(1_000);
      await expectRefused(withSession(SEND, later.token), /expired/);
      const [head, , signature] = later.token.split('.');
      const forgedClaims = Buffer.from(
        JSON.stringify({
          sub: session.userId,
          email: 'owner@example.com',
          sid: 's',
          exp: 9e9,
          aud: 'notify-console',
        }),
      ).toString('base64url');
      await expectRefused(
        withSession(SEND, `${head}.${forgedClaims}.${signature}`),
        /not one this service issued/,
      );
    });

    it('keeps sessions and bearer JWTs apart: neither is taken for the other', async () => {
      const { token } = await sessionOf('owner@example.com');
      await expectRefused(call(SEND, bearer(token)), /signature does not verify/);
      await expectRefused(withSession(SEND, owner), /not one this service issued/);
    });

    it('lets an Authorization header win over the cookie, even a bad one', async () => {
      const { token } = await sessionOf('owner@example.com');
      const byKey = (await call(
        SEND,
        bearer(key),
        {},
        undefined,
        {},
        { ...cookie(token), ...CONSOLE },
      )) as AuthenticatedRequest;
      expect(byKey.caller).toMatchObject({ kind: 'key', envId: 'env-1' });
      expect(
        await call(SEND, 'Bearer nope', {}, undefined, {}, { ...cookie(token), ...CONSOLE }),
      ).toBeInstanceOf(UnauthorizedError);
    });

    it('counts refused sessions among failed authentications', async () => {
      const { token } = await sessionOf('owner@example.com');
      const from = '203.0.113.9';
      for (let i = 0; i < 3; i++) await expectRefused(withSession(SEND, token, {}, {}, from), /header/);
      expect(await withSession(SEND, token, {}, {}, from)).toBeInstanceOf(RateLimitedError);
      expect(await withSession(SEND, token, CONSOLE, {}, from)).toBeInstanceOf(RateLimitedError);
    });
  });
});
