/** What the peer answers a request: a status and a JSON body (none for 204). */
export type Answer = { status: number; body?: unknown };

/** Twilio's error body: its code, message and the page documenting the code. */
export const error = (status: number, code: number, message: string): Answer => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});
