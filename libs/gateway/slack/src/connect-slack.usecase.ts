import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { SlackApps } from '@notify/providers';
import { UserRepository } from '@notify/store';
import { type Clock, InvalidRequestError } from '@notify/util';
import { slackFailure } from './slack-failure';

export interface ConnectSlackCommand {
  readonly scope: TenantScope;
  readonly userId: string;
  readonly code: string;
  readonly redirectUri: string;
}

/**
 * Completes a user's Slack OAuth: exchanges the code (`oauth.v2.access`, with the environment's
 * Slack app, else the deployment's) and stores the token on the user.
 */
@Injectable()
export class ConnectSlackUseCase {
  constructor(
    private readonly apps: SlackApps,
    private readonly users: UserRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: ConnectSlackCommand): Promise<void> {
    const { scope, userId } = command;
    const app = await this.apps.appOf(scope);
    if (app === undefined)
      throw new InvalidRequestError({
        code: 'SLACK_NOT_CONFIGURED',
        message: 'This environment has no Slack app.',
        fix: 'Set the environment’s slack setting (clientId, clientSecret), or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET.',
      });
    const answer = await this.apps
      .client(undefined)
      .oauth.v2.access({
        client_id: app.clientId,
        client_secret: app.clientSecret,
        code: command.code,
        redirect_uri: command.redirectUri,
      })
      .catch(slackFailure);
    const { response_metadata: _metadata, ...token } = answer;
    await this.users.identify(
      scope,
      userId,
      { slackToken: { ...token, ok: true } },
      new Date(this.clock.now()).toISOString(),
      false,
    );
  }
}
