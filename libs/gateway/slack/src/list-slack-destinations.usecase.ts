import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { SlackApps } from '@notify/providers';
import { UserRepository } from '@notify/store';
import { InvalidRequestError } from '@notify/util';
import type { WebClient } from '@slack/web-api';
import { slackFailure } from './slack-failure';

/** Pages read per list: a workspace with more channels than this shows the first ones. */
const MAX_PAGES = 10;

export interface SlackDestination {
  readonly id: string;
  readonly name: string;
}

export interface SlackDestinations {
  readonly channels: SlackDestination[];
  readonly users: SlackDestination[];
}

/** The channels (`#name`) and people (`@name`, no bots, no deactivated users) a user's Slack token can post to. */
@Injectable()
export class ListSlackDestinationsUseCase {
  constructor(
    private readonly apps: SlackApps,
    private readonly users: UserRepository,
  ) {}

  async execute(command: {
    readonly scope: TenantScope;
    readonly userId: string;
  }): Promise<SlackDestinations> {
    const client = this.apps.client(await this.tokenOf(command.scope, command.userId));
    const [channels, users] = await Promise.all([
      this.pages(client, 'conversations.list', 'channels', {
        exclude_archived: true,
        types: 'public_channel,private_channel',
      }),
      this.pages(client, 'users.list', 'members', {}),
    ]).catch(slackFailure);
    return {
      channels: channels.map((c) => ({ id: String(c.id), name: `#${String(c.name)}` })),
      users: users
        .filter((u) => u.deleted !== true && u.is_bot !== true)
        .map((u) => ({ id: String(u.id), name: `@${String(u.name)}` })),
    };
  }

  private async tokenOf(scope: TenantScope, userId: string): Promise<string> {
    const token = (await this.users.slackToken(scope, userId))?.access_token;
    if (token === undefined)
      throw new InvalidRequestError({
        code: 'SLACK_NOT_CONNECTED',
        message: `User ${userId} has no Slack token.`,
        fix: 'Complete POST /users/{userId}/slack-oauth first, or identify the user with a slackToken.',
      });
    return token;
  }

  private async pages(
    client: WebClient,
    method: string,
    key: string,
    options: Record<string, unknown>,
  ): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = (await client.apiCall(method, {
        ...options,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      })) as unknown as Record<string, unknown>;
      items.push(...((answer[key] as Record<string, unknown>[] | undefined) ?? []));
      cursor = (answer.response_metadata as { next_cursor?: string } | undefined)?.next_cursor;
      if (!cursor) break;
    }
    return items;
  }
}
