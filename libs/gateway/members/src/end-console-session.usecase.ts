import { Injectable } from '@nestjs/common';
import { AuthFailureLimiter, ConsoleSessionTokens } from '@notify/gateway-auth';
import { UnauthorizedError } from '@notify/util';

/**
 * Signs a console session out on every gateway (its id is revoked until the token would have
 * expired). A cookie that holds no live session has nothing to sign out: that is not an error,
 * since the answer clears the cookie either way (but it counts as a failed authentication).
 */
@Injectable()
export class EndConsoleSessionUseCase {
  constructor(
    private readonly sessions: ConsoleSessionTokens,
    private readonly failures: AuthFailureLimiter,
  ) {}

  /** `address` is the client's: a cookie that does not verify counts among its failed authentications. */
  async execute(token: string | undefined, address: string): Promise<{ success: true }> {
    if (token === undefined || !this.sessions.enabled) return { success: true };
    this.failures.check(address);
    try {
      await this.sessions.revoke(await this.sessions.verify(token));
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      await this.failures.failed(address);
    }
    return { success: true };
  }
}
