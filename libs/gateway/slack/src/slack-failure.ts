import { InvalidRequestError, ProviderError } from '@notify/util';
import { ErrorCode } from '@slack/web-api';

/** OAuth errors that are the caller's (a stale or wrong code), not Slack's. */
const CALLER_ERRORS = new Set([
  'invalid_code',
  'code_already_used',
  'bad_redirect_uri',
  'invalid_grant_type',
]);
/** Errors about the user's stored token: the user must connect again; Slack itself is fine. */
const TOKEN_ERRORS = new Set([
  'not_authed',
  'invalid_auth',
  'token_expired',
  'token_revoked',
  'account_inactive',
]);

/** Turns an error of the Slack SDK into the API's: 400 for the caller's code or the user's token, else 502. */
export function slackFailure(error: unknown): never {
  const { code, data } = error as { code?: string; data?: { error?: string } };
  const slackCode = code === ErrorCode.PlatformError ? (data?.error ?? 'unknown_error') : 'request_failed';
  const details = { provider: 'slack', providerCode: slackCode };
  if (CALLER_ERRORS.has(slackCode))
    throw new InvalidRequestError({
      code: 'INVALID_SLACK_CODE',
      message: `Slack refused the OAuth code (${slackCode}).`,
      fix: 'Send the code Slack just returned to your redirect_uri, once, with that same redirect_uri.',
      ...details,
    });
  if (TOKEN_ERRORS.has(slackCode))
    throw new InvalidRequestError({
      code: 'SLACK_TOKEN_INVALID',
      message: `Slack refused the user's token (${slackCode}).`,
      fix: 'Connect the user to Slack again (POST /users/{userId}/slack-oauth).',
      ...details,
    });
  throw new ProviderError({
    code: 'SLACK_ERROR',
    message: `Slack answered ${slackCode}.`,
    fix: 'Retry later.',
    ...details,
  });
}
