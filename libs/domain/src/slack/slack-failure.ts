/** The log's slack_failed_code values: the only codes a Slack failure may be logged with. */
export type SlackFailedCode =
  | 'CHANNEL_NOT_FOUND'
  | 'NOT_IN_CHANNEL'
  | 'CHANNEL_ARCHIVED'
  | 'MESSAGE_TOO_LONG'
  | 'NO_TEXT'
  | 'RESTRICTED_ACTION'
  | 'TOKEN_EXPIRED'
  | 'INVALID_AUTH'
  | 'UNKNOWN';

const CODES: Readonly<Record<string, SlackFailedCode>> = {
  channel_not_found: 'CHANNEL_NOT_FOUND',
  user_not_found: 'CHANNEL_NOT_FOUND',
  not_in_channel: 'NOT_IN_CHANNEL',
  is_archived: 'CHANNEL_ARCHIVED',
  msg_too_long: 'MESSAGE_TOO_LONG',
  no_text: 'NO_TEXT',
  restricted_action: 'RESTRICTED_ACTION',
  restricted_action_read_only_channel: 'RESTRICTED_ACTION',
  restricted_action_thread_only_channel: 'RESTRICTED_ACTION',
  restricted_action_non_threadable_channel: 'RESTRICTED_ACTION',
  ekm_access_denied: 'RESTRICTED_ACTION',
  token_expired: 'TOKEN_EXPIRED',
  invalid_auth: 'INVALID_AUTH',
  not_authed: 'INVALID_AUTH',
  account_inactive: 'INVALID_AUTH',
  token_revoked: 'INVALID_AUTH',
  no_permission: 'INVALID_AUTH',
  missing_scope: 'INVALID_AUTH',
};

/** Slack errors that may pass if tried again (rate limits are waited out by the SDK itself). */
const TRANSIENT = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
]);

export const slackFailureCode = (error: string): SlackFailedCode => CODES[error] ?? 'UNKNOWN';
export const isTransientSlackError = (error: string): boolean => TRANSIENT.has(error);
