import { isTransientProviderStatus } from '@notify/domain';
import { TwilioClientError } from './twilio-client';

/** What Twilio's API answered when it refused a request; no status when it was never reached. */
export interface TwilioRefusal {
  readonly status?: number;
  readonly code?: number;
  readonly message: string;
}

/** Reads the SDK's RestException (status, Twilio error code) or a transport error. */
export function twilioRefusal(error: unknown): TwilioRefusal {
  const { status, code, message } = error as { status?: unknown; code?: unknown; message?: unknown };
  return {
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof code === 'number' ? { code } : {}),
    message: typeof message === 'string' ? message : String(error),
  };
}

/** Twilio's busy or failing answers and the errors of never reaching it; not a request this client refused to make. */
export const isTransientTwilioError = (error: unknown): boolean =>
  !(error instanceof TwilioClientError) && isTransientProviderStatus(twilioRefusal(error).status);

/** Where Twilio posts a message's or call's status: the callback route, naming the send it is for. */
export function twilioCallbackUrl(
  publicUrl: string,
  kind: 'status' | 'call-status',
  job: {
    accountId: string;
    envId: string;
    trackingId: string;
    receivedAt: number;
    userId: string;
    notificationId: string;
  },
): string {
  const url = new URL(`inbound/twilio/${kind}`, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  url.searchParams.set('accountId', job.accountId);
  url.searchParams.set('envId', job.envId);
  url.searchParams.set('trackingId', job.trackingId);
  url.searchParams.set('receivedAt', String(job.receivedAt));
  // Whose send it is, for the webhook the status may call for (Twilio signs the whole URL).
  url.searchParams.set('userId', job.userId);
  url.searchParams.set('notificationId', job.notificationId);
  return url.toString();
}
