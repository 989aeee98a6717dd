/**
 * Twilio's error codes that the log names as they are (the allowed values of sms_failed_code and
 * call_failed_code); any other provider code is logged as `Unknown`, with the code in the text.
 */
const LOGGED_CODES = new Set([
  '13224',
  '21211',
  '21215',
  '21265',
  '21610',
  '21614',
  '21612',
  '30005',
  '30006',
  '30007',
  '30008',
  '30453',
  '40001',
  '40002',
  '40300',
]);

export type PhoneFailureCode = string;

export const phoneFailureCode = (providerCode: string | number | undefined): PhoneFailureCode =>
  providerCode !== undefined && LOGGED_CODES.has(String(providerCode)) ? String(providerCode) : 'Unknown';

/**
 * Whether a refusal from Twilio's REST API may succeed later: rate limiting and server errors are
 * retried; a 4xx other than 429 is the request's own fault and fails once.
 */
export const isTransientProviderStatus = (status: number | undefined): boolean =>
  status === undefined || status === 429 || status >= 500;
