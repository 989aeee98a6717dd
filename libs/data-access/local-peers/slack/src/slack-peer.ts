import { randomBytes } from 'node:crypto';
import { HttpPeer, PeerInbox } from '@notify/local-peer-kit';
import { readBoundedBody } from '@notify/platform';
import { type Clock, systemClock } from '@notify/util';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SlackPeerOptions {
  /** Oldest messages are dropped beyond this many. */
  readonly keep?: number;
  /** Time of the message timestamps (`ts`) it issues (the system clock unless given). */
  readonly clock?: Clock;
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** `expires_in` of the rotated tokens the peer issues. */
  readonly tokenLifetimeSeconds?: number;
}

export interface PeerSlackMessage {
  readonly id: string;
  readonly receivedAt: string;
  /** From the `x-notify-tracking-id` request header. */
  readonly trackingId?: string;
  readonly token: string;
  /** As the caller gave it. */
  readonly channel: string;
  readonly channelId: string;
  readonly ts: string;
  readonly text?: string;
  readonly blocks?: unknown[];
  readonly thread_ts?: string;
  readonly reply_broadcast?: boolean;
  readonly username?: string;
  /** icon_emoji, else icon_url. */
  readonly icon?: string;
  readonly parse?: string;
  readonly link_names?: boolean;
  readonly mrkdwn?: boolean;
  readonly unfurl_links?: boolean;
  readonly unfurl_media?: boolean;
  readonly metadata?: unknown;
}

type Args = Record<string, unknown>;
type Answer = { status: number; body: Args; headers?: Record<string, string> };

const TEAM = { id: 'T0LOCAL', name: 'Local workspace' };
const CHANNELS = [
  { id: 'C0GENERAL', name: 'general', is_archived: false, is_member: true },
  { id: 'C0RANDOM', name: 'random', is_archived: false, is_member: true },
  { id: 'C0ALERTS', name: 'alerts', is_archived: false, is_member: true },
  { id: 'C0ARCHIVED', name: 'archived', is_archived: true, is_member: true },
  { id: 'C0NOBOT', name: 'no-bot', is_archived: false, is_member: false },
  { id: 'C0RATELIMITED', name: 'ratelimited', is_archived: false, is_member: true },
] as const;
const USERS = [
  { id: 'U0ANN', name: 'ann', real_name: 'Ann Example' },
  { id: 'U0BOB', name: 'bob', real_name: 'Bob Example' },
] as const;
const MAX_BODY = 1024 * 1024;
const MAX_TEXT = 40_000;

const ok = (body: Args = {}): Answer => ({ status: 200, body: { ok: true, ...body } });
const fail = (error: string): Answer => ({ status: 200, body: { ok: false, error } });
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A boolean argument as the SDK sends it (form: 'true'/'false'; JSON: a boolean). */
const bool = (value: unknown): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true' || value === '1';
/** A structured argument (form: a JSON string; JSON: the value). */
function structured(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A page of `items` from the base64 offset in `cursor`, and the cursor of the next one. */
function page<T>(items: readonly T[], args: Args): { items: T[]; next: string } {
  const limit = Math.max(1, Math.min(1_000, Number(args.limit ?? 100) || 100));
  const offset = Number(Buffer.from(str(args.cursor) ?? '', 'base64').toString() || '0') || 0;
  const next = offset + limit < items.length ? Buffer.from(String(offset + limit)).toString('base64') : '';
  return { items: items.slice(offset, offset + limit), next };
}

/** The OAuth code the peer always refuses, as Slack refuses a wrong or expired one. */
const REHEARSE_INVALID_CODE = 'invalid_code';

/**
 * A local HTTP server speaking the Slack Web API (`chat.postMessage`, `oauth.v2.access` with token
 * rotation, `conversations.list`, `users.list`, `auth.test`) for a small fixed workspace; the
 * `@slack/web-api` SDK talks to it unchanged through `slackApiUrl`. It answers the rehearsal
 * conventions of the local peers as Slack would (`#missing`, `#archived`, `#no-bot`, token
 * `xoxb-expired`; see docs/api-behaviour.md), and keeps what was posted. Nothing leaves the machine.
 */
export class SlackPeer extends HttpPeer {
  readonly clientId: string;
  readonly clientSecret: string;
  private readonly lifetime: number;
  private readonly inbox: PeerInbox<PeerSlackMessage>;
  private readonly clock: Clock;
  /** OAuth codes and refresh tokens are good once. */
  private readonly spent = new Set<string>();
  private nextId = 1;
  private lastTs = 0;
  private refreshed = 0;
  private rateLimited = false;

  constructor(options: SlackPeerOptions = {}) {
    super();
    this.clientId = options.clientId ?? '1111.2222';
    this.clientSecret = options.clientSecret ?? hex(16);
    this.inbox = new PeerInbox(options.keep ?? 1_000);
    this.clock = options.clock ?? systemClock;
    this.lifetime = options.tokenLifetimeSeconds ?? 43_200;
  }

  /** What the SDK takes as `slackApiUrl`. */
  get url(): string {
    return `${this.origin}/api/`;
  }

  messages(): readonly PeerSlackMessage[] {
    return this.inbox.messages();
  }

  remove(ids: readonly string[]): void {
    this.inbox.remove(ids);
  }

  onMessage(listener: (message: PeerSlackMessage) => void): () => void {
    return this.inbox.onMessage(listener);
  }

  /** Messages accepted by chat.postMessage, repeats included. */
  deliveries(): number {
    return this.inbox.deliveries();
  }

  /** Tokens refreshed through oauth.v2.access. */
  refreshes(): number {
    return this.refreshed;
  }

  /** A one-time OAuth code, as Slack hands the user's browser (any unused code but `invalid_code` is accepted). */
  issueCode(): string {
    return `code-${hex(8)}`;
  }

  protected async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let answer: Answer;
    try {
      const body = await readBoundedBody(request, MAX_BODY);
      answer =
        body === undefined
          ? { status: 413, body: { ok: false, error: 'request_too_large' } }
          : this.route(request, parseArgs(request.headers['content-type'], body));
    } catch {
      answer = fail('invalid_form_data');
    }
    response
      .writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers })
      .end(JSON.stringify(answer.body));
  }

  private route(request: IncomingMessage, args: Args): Answer {
    const method = /^\/api\/([A-Za-z.0-9]+)$/.exec(new URL(request.url ?? '/', 'http://peer').pathname)?.[1];
    if (method === 'oauth.v2.access') return this.oauth(request.headers.authorization, args);
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : str(args.token);
    if (token === undefined || token === '') return fail('not_authed');
    if (!/^xox[bp]-/.test(token)) return fail('invalid_auth');
    if (token === 'xoxb-expired') return fail('token_expired');
    switch (method) {
      case 'chat.postMessage':
        return this.postMessage(token, args, request.headers['x-notify-tracking-id']);
      case 'conversations.list': {
        const listed = CHANNELS.filter((c) => !(bool(args.exclude_archived) === true && c.is_archived));
        const { items, next } = page(listed, args);
        return ok({
          channels: items.map((c) => ({ ...c, is_channel: true, is_private: false })),
          response_metadata: { next_cursor: next },
        });
      }
      case 'users.list': {
        const { items, next } = page(USERS, args);
        return ok({
          members: items.map((u) => ({
            ...u,
            deleted: false,
            is_bot: false,
            profile: { display_name: u.name },
          })),
          response_metadata: { next_cursor: next },
        });
      }
      case 'auth.test':
        return ok({
          url: 'https://local.slack.test/',
          team: TEAM.name,
          user: 'notify',
          team_id: TEAM.id,
          user_id: 'U0BOT',
          bot_id: 'B0LOCAL',
        });
      default:
        return fail('unknown_method');
    }
  }

  /** The channel id a destination resolves to, or the error Slack gives for it. */
  private resolve(channel: string): { id: string } | { error: string } {
    const name = channel.replace(/^#/, '');
    if (name === 'missing') return { error: 'channel_not_found' };
    if (/^U[A-Z0-9]+$/.test(name))
      return USERS.some((u) => u.id === name) ? { id: `D0${name.slice(1)}` } : { error: 'channel_not_found' };
    const found = CHANNELS.find((c) => c.id === name || c.name === name);
    if (found === undefined) return { error: 'channel_not_found' };
    if (found.is_archived) return { error: 'is_archived' };
    if (!found.is_member) return { error: 'not_in_channel' };
    return { id: found.id };
  }

  private postMessage(token: string, args: Args, trackingHeader: string | string[] | undefined): Answer {
    const channel = str(args.channel) ?? '';
    const resolved = this.resolve(channel);
    if ('error' in resolved) return fail(resolved.error);
    if (resolved.id === 'C0RATELIMITED' && !this.rateLimited) {
      this.rateLimited = true;
      return { status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': '1' } };
    }
    const text = str(args.text);
    const blocks = structured(args.blocks) as unknown[] | undefined;
    if ((text === undefined || text === '') && (blocks === undefined || blocks.length === 0))
      return fail('no_text');
    if (text !== undefined && text.length > MAX_TEXT) return fail('msg_too_long');
    const ts = this.nextTs();
    const trackingId = typeof trackingHeader === 'string' ? trackingHeader : undefined;
    const icon = str(args.icon_emoji) ?? str(args.icon_url);
    const message: PeerSlackMessage = {
      id: String(this.nextId++),
      receivedAt: new Date().toISOString(),
      ...(trackingId !== undefined ? { trackingId } : {}),
      token,
      channel,
      channelId: resolved.id,
      ts,
      ...definedOnly({
        text,
        blocks,
        thread_ts: str(args.thread_ts),
        reply_broadcast: bool(args.reply_broadcast),
        username: str(args.username),
        icon,
        parse: str(args.parse),
        link_names: bool(args.link_names),
        mrkdwn: bool(args.mrkdwn),
        unfurl_links: bool(args.unfurl_links),
        unfurl_media: bool(args.unfurl_media),
        metadata: structured(args.metadata),
      }),
    };
    this.inbox.add(message);
    return ok({
      channel: resolved.id,
      ts,
      message: { type: 'message', text, user: 'U0BOT', bot_id: 'B0LOCAL', ts, ...(blocks ? { blocks } : {}) },
    });
  }

  private oauth(authorization: string | undefined, args: Args): Answer {
    const basic = authorization?.startsWith('Basic ')
      ? Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':')
      : [];
    const clientId = str(args.client_id) ?? basic[0];
    const clientSecret = str(args.client_secret) ?? basic[1];
    if (clientId !== this.clientId) return fail('invalid_client_id');
    if (clientSecret !== this.clientSecret) return fail('bad_client_secret');
    const grant = str(args.grant_type) ?? 'authorization_code';
    if (grant === 'refresh_token') {
      const refresh = str(args.refresh_token) ?? '';
      if (!refresh.startsWith('xoxe-1-') || this.spent.has(refresh)) return fail('invalid_refresh_token');
      this.spent.add(refresh);
      this.refreshed++;
      return ok(this.tokens());
    }
    if (grant !== 'authorization_code') return fail('invalid_grant_type');
    // Rehearsals make success the default: any code is good once, `invalid_code` never.
    const code = str(args.code) ?? '';
    if (code === '' || code === REHEARSE_INVALID_CODE || this.spent.has(code)) return fail('invalid_code');
    this.spent.add(code);
    return ok(this.tokens());
  }

  private tokens(): Args {
    return {
      app_id: 'A0LOCAL',
      authed_user: { id: 'U0ANN', scope: 'chat:write', access_token: `xoxp-${hex(12)}`, token_type: 'user' },
      scope: 'chat:write,channels:read,users:read',
      token_type: 'bot',
      access_token: `xoxb-${hex(12)}`,
      bot_user_id: 'U0BOT',
      refresh_token: `xoxe-1-${hex(12)}`,
      expires_in: this.lifetime,
      team: TEAM,
      enterprise: null,
      is_enterprise_install: false,
    };
  }

  /** Slack message timestamps: unique and increasing, `seconds.micros`. */
  private nextTs(): string {
    const micros = Math.max(this.clock.now() * 1_000, this.lastTs + 1);
    this.lastTs = micros;
    return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`;
  }
}

function definedOnly(fields: Args): Args {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function parseArgs(contentType: string | undefined, body: string): Args {
  if (body === '') return {};
  if (contentType?.includes('application/json') === true) return JSON.parse(body) as Args;
  return Object.fromEntries(new URLSearchParams(body));
}

/** A message as `GET /dev/outbox/slack` shows it: channel, text, blocks, thread_ts, username, icon. */
export const slackOutboxView = (message: PeerSlackMessage) => ({
  id: message.id,
  receivedAt: message.receivedAt,
  trackingId: message.trackingId,
  channel: message.channel,
  text: message.text,
  blocks: message.blocks,
  thread_ts: message.thread_ts,
  username: message.username,
  icon: message.icon,
});
