import twilio, { type Twilio } from 'twilio';
import RequestClient from 'twilio/lib/base/RequestClient';

/** Where Twilio's REST API lives; the SDK writes this host into every request it makes. */
export const TWILIO_API_URL = 'https://api.twilio.com';

/** What a Twilio client is built from: the credentials, and the API's base URL (the operator's, or a local peer's). */
export interface TwilioCredentials {
  readonly accountSid: string;
  readonly authToken: string;
  /** Default https://api.twilio.com; a Twilio-compatible API (the local peer) otherwise. */
  readonly apiUrl?: string;
}

/**
 * The SDK's own HTTP client (axios, keep-alive agent), sending to another base URL than Twilio's:
 * the SDK builds every request exactly as it would for Twilio, and only the origin changes.
 */
class BaseUrlRequestClient extends RequestClient {
  constructor(private readonly apiUrl: string) {
    super({ keepAlive: true, timeout: 15_000 });
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const uri = opts.uri.startsWith(TWILIO_API_URL)
      ? `${this.apiUrl}${opts.uri.slice(TWILIO_API_URL.length)}`
      : opts.uri;
    return super.request({ ...opts, uri });
  }
}

/** A Twilio REST client for these credentials. Callers cache it per credential (ProviderClients). */
export function createTwilioClient(credentials: TwilioCredentials): Twilio {
  const apiUrl = credentials.apiUrl?.replace(/\/+$/, '');
  return twilio(credentials.accountSid, credentials.authToken, {
    ...(apiUrl === undefined || apiUrl === TWILIO_API_URL
      ? { httpClient: new RequestClient({ keepAlive: true, timeout: 15_000 }) }
      : { httpClient: new BaseUrlRequestClient(apiUrl) }),
  });
}
