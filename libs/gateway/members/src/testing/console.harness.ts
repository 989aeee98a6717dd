import { AuthFailuresStore, ConsoleSignInLinksStore, EmbeddedCoordinationStore } from '@notify/cache';
import {
  AuthFailureLimiter,
  ConsoleSessionTokens,
  JwksKeySet,
  JwtVerifier,
  MemberAuthenticator,
} from '@notify/gateway-auth';
import { TEST_JWT_SECRET, tempDir, testLogger } from '@notify/testing';
import { EndConsoleSessionUseCase } from '../end-console-session.usecase';
import { GetConsoleSessionUseCase } from '../get-console-session.usecase';
import { RequestSignInLinkUseCase } from '../request-sign-in-link.usecase';
import { StartConsoleSessionUseCase } from '../start-console-session.usecase';
import { membersHarness } from './members.harness';

/**
 * The console's session use cases over the members harness (see membersHarness) and an embedded
 * coordination store, with JWT_SECRET = TEST_JWT_SECRET unless `env` says otherwise and at most
 * `AUTH_FAILURES_PER_MINUTE` (default 30) failed authentications a minute.
 */
export async function consoleHarness(env: Record<string, string> = {}) {
  const members = await membersHarness({ JWT_SECRET: TEST_JWT_SECRET, ...env });
  const { config, clock } = members;
  const dir = await tempDir('notify-console-');
  const coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
  const links = new ConsoleSignInLinksStore(coordination);
  const sessions = new ConsoleSessionTokens(config, clock, links);
  const failures = new AuthFailureLimiter(new AuthFailuresStore(coordination), config, clock);
  const authenticator = new MemberAuthenticator(
    new JwtVerifier(config, clock, new JwksKeySet(config, clock)),
    members.people,
    members.memberships,
    members.accounts,
    members.autoJoin,
    clock,
  );
  return {
    ...members,
    links,
    sessions,
    requestLink: new RequestSignInLinkUseCase(
      links,
      sessions,
      members.people,
      members.memberships,
      members.mail,
      clock,
      testLogger('gateway'),
    ),
    startSession: new StartConsoleSessionUseCase(
      sessions,
      links,
      authenticator,
      members.people,
      members.memberships,
      failures,
    ),
    getSession: new GetConsoleSessionUseCase(members.memberships),
    endSession: new EndConsoleSessionUseCase(sessions, failures),
    async close() {
      await coordination.close();
      await dir.remove();
      await members.close();
    },
  };
}

export type ConsoleHarness = Awaited<ReturnType<typeof consoleHarness>>;
