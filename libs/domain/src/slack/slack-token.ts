import { maskSecret } from '@notify/util';
import type { UserFields } from '../users/user';

export type SlackToken = NonNullable<UserFields['slackToken']>;

/**
 * Fields of a Slack OAuth answer that let their holder act in the workspace: tokens of any kind
 * (`access_token`, `refresh_token`, `id_token`, the `authed_user`'s) and URLs (an incoming
 * webhook's `url` posts to its channel). `token_type` and the rest describe the grant.
 */
const SECRET_FIELD = /(^|_)(token|secret|url)$/;

function masked(value: unknown, key: string): unknown {
  if (typeof value === 'string') return SECRET_FIELD.test(key) ? maskSecret(value) : value;
  if (Array.isArray(value)) return value.map((item) => masked(item, key));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, k)]));
  return value;
}

/** A user's Slack token as every read shows it: the grant's description, its secrets masked. */
export const maskedSlackToken = (token: SlackToken): SlackToken => masked(token, '') as SlackToken;
