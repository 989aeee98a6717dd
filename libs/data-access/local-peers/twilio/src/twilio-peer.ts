import { randomBytes } from 'node:crypto';
import { HttpPeer, PeerInbox } from '@notify/local-peer-kit';
import { readBoundedBody } from '@notify/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks';
import { type Answer, error } from './peer-answer';
import { PeerNumbers } from './peer-numbers';

export interface TwilioPeerOptions {
  /** Oldest entries are dropped beyond this many (per kind). */
  readonly keep?: number;
  readonly accountSid?: string;
  readonly authToken?: string;
  /** Delay before the status callbacks are posted. */
  readonly callbackDelayMs?: number;
}

interface Entry {
  readonly id: string;
  readonly receivedAt: string;
  /** From the `trackingId` query parameter of the StatusCallback URL. */
  readonly trackingId?: string;
  readonly sid: string;
  readonly to: string;
  readonly from: string;
  readonly statusCallback?: string;
}

export interface PeerSms extends Entry {
  readonly kind: 'sms';
  readonly body: string;
  readonly mediaUrls: readonly string[];
}

export interface PeerCall extends Entry {
  readonly kind: 'call';
  /** The text of the TwiML's `<Say>` elements, XML entities decoded. */
  readonly say: string;
  readonly twiml: string;
}

export type PeerEntry = PeerSms | PeerCall;

type Form = URLSearchParams;

/** Twilio's magic test numbers that Twilio refuses at the API: refused here with Twilio's code. */
const REFUSED: Readonly<Record<string, { code: number; message: string }>> = {
  '+15005550001': { code: 21211, message: "The 'To' number +15005550001 is not a valid phone number." },
  '+15005550002': {
    code: 21612,
    message: "The 'To' phone number is not currently reachable via SMS or voice.",
  },
  '+15005550004': { code: 21610, message: 'Attempt to send to unsubscribed recipient' },
  '+15005550009': { code: 21614, message: "'To' number is not a valid mobile number" },
};
/** Accepted, then reported undelivered by the carrier. */
const UNDELIVERED = '+15005550010';
const E164 = /^\+[1-9]\d{6,14}$/;
const MAX_BODY = 1024 * 1024;
const RETRY_DELAYS_MS = [200, 1_000, 3_000];

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeXml = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return XML_ENTITIES[entity] ?? whole;
  });
/** The spoken text of a TwiML document: every `<Say>`'s content, in order. */
const sayOf = (twiml: string) =>
  [...twiml.matchAll(/<Say(?:\s[^>]*)?>([\s\S]*?)<\/Say>/g)].map((m) => decodeXml(m[1] ?? '')).join(' ');
/** The texts of a messaging webhook's answer: each `<Message>`'s (no match reads past the next `<`). */
const messagesOf = (twiml: string) =>
  [...twiml.matchAll(/<Message(?:\s[^<>]*)?>([^<]*)<\/Message>/g)]
    .map((m) => decodeXml(m[1] ?? '').trim())
    .filter((text) => text.length > 0);
/** More of a webhook's answer than a few messages need is not read. */
const MAX_TWIML = 64 * 1024;

const trackingIdOf = (callback: string | undefined): string | undefined => {
  if (callback === undefined) return undefined;
  try {
    return new URL(callback).searchParams.get('trackingId') ?? undefined;
  } catch {
    return undefined;
  }
};

/** The account's resources the peer serves, under `/2010-04-01/Accounts/{AccountSid}/`. */
const RESOURCE =
  /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages\.json|Calls\.json|IncomingPhoneNumbers\.json|IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json|AvailablePhoneNumbers\/([A-Z]{2})\/Local\.json)$/;

/**
 * A local HTTP server speaking Twilio's REST API for messages, calls and phone numbers (the
 * `twilio` SDK talks to it unchanged through its base URL): it authenticates like Twilio, answers
 * the magic test numbers with Twilio's errors, keeps what it accepted, posts status callbacks
 * signed with `X-Twilio-Signature` as Twilio does, and sells numbers from a fixed pool (see
 * PeerNumbers). Nothing leaves the machine.
 */
export class TwilioPeer extends HttpPeer {
  readonly accountSid: string;
  readonly authToken: string;
  private readonly callbackDelayMs: number;
  private readonly inboxes: { sms: PeerInbox<PeerSms>; call: PeerInbox<PeerCall> };
  private readonly numbers: PeerNumbers;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly aborts = new AbortController();
  private nextId = 1;
  private callbacks = 0;

  constructor(options: TwilioPeerOptions = {}) {
    super();
    this.accountSid = options.accountSid ?? `AC${hex(16)}`;
    this.authToken = options.authToken ?? hex(16);
    const keep = options.keep ?? 1_000;
    this.inboxes = { sms: new PeerInbox(keep), call: new PeerInbox(keep) };
    this.callbackDelayMs = options.callbackDelayMs ?? 50;
    this.numbers = new PeerNumbers(this.accountSid);
  }

  override async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.aborts.abort();
    await super.stop();
  }

  /** The base URL the SDK is pointed at (in place of https://api.twilio.com). */
  get url(): string {
    return this.origin;
  }

  sms(): readonly PeerSms[] {
    return this.inboxes.sms.messages();
  }

  calls(): readonly PeerCall[] {
    return this.inboxes.call.messages();
  }

  remove(kind: 'sms' | 'call', ids: readonly string[]): void {
    this.inboxes[kind].remove(ids);
  }

  onMessage(listener: (entry: PeerEntry) => void): () => void {
    const stops = [this.inboxes.sms.onMessage(listener), this.inboxes.call.onMessage(listener)];
    return () => stops.forEach((stop) => stop());
  }

  /** Every create request accepted (messages and calls), repeats included. */
  deliveries(): number {
    return this.inboxes.sms.deliveries() + this.inboxes.call.deliveries();
  }

  /** Status callbacks answered 2xx. */
  callbacksSent(): number {
    return this.callbacks;
  }

  protected async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let answer: Answer;
    try {
      const body = await readBoundedBody(request, MAX_BODY);
      answer = body === undefined ? error(413, 20001, 'Request body too large') : this.route(request, body);
    } catch {
      answer = error(400, 20001, 'Malformed request');
    }
    if (answer.body === undefined) response.writeHead(answer.status).end();
    else
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
  }

  private route(request: IncomingMessage, body: string): Answer {
    const url = new URL(request.url ?? '/', 'http://peer');
    const match = RESOURCE.exec(url.pathname);
    if (match === null) return error(404, 20404, `The requested resource ${url.pathname} was not found`);
    if (match[1] !== this.accountSid || !this.authorized(request.headers.authorization))
      return error(401, 20003, 'Authenticate');
    const [, , resource = '', numberSid, country] = match;
    const method = request.method ?? 'GET';
    const form = new URLSearchParams(body);
    if (country !== undefined && method === 'GET') return this.numbers.available(country, url.searchParams);
    if (numberSid !== undefined && method === 'DELETE') return this.numbers.release(numberSid);
    if (resource === 'IncomingPhoneNumbers.json' && method === 'GET')
      return this.numbers.list(url.searchParams);
    if (resource === 'IncomingPhoneNumbers.json' && method === 'POST') return this.numbers.buy(form);
    if (resource === 'Messages.json' && method === 'GET') return this.listMessages(url.searchParams);
    if (resource === 'Messages.json' && method === 'POST') return this.createMessage(form);
    if (resource === 'Calls.json' && method === 'POST') return this.createCall(form);
    return error(405, 20004, 'Method not allowed');
  }

  private authorized(header: string | undefined): boolean {
    if (header?.startsWith('Basic ') !== true) return false;
    return Buffer.from(header.slice(6), 'base64').toString('utf8') === `${this.accountSid}:${this.authToken}`;
  }

  private refusal(to: string | null): Answer | undefined {
    if (to === null || to === '') return error(400, 21604, "A 'To' phone number is required.");
    const refused = REFUSED[to];
    if (refused !== undefined) return error(400, refused.code, refused.message);
    if (!E164.test(to)) return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    return undefined;
  }

  private createMessage(form: Form): Answer {
    const to = form.get('To');
    const refused = this.refusal(to);
    if (refused !== undefined) return refused;
    const body = form.get('Body') ?? '';
    const mediaUrls = form.getAll('MediaUrl');
    if (body === '' && mediaUrls.length === 0) return error(400, 21602, 'Message body is required.');
    const statusCallback = form.get('StatusCallback') ?? undefined;
    const from = form.get('From') ?? form.get('MessagingServiceSid') ?? '';
    const entry: PeerSms = {
      ...this.entry('SM', to ?? '', from, statusCallback),
      kind: 'sms',
      body,
      mediaUrls,
    };
    this.record(entry);
    if (statusCallback !== undefined) {
      const final =
        entry.to === UNDELIVERED
          ? { MessageStatus: 'undelivered', ErrorCode: '30005' }
          : { MessageStatus: 'delivered' };
      const base = {
        MessageSid: entry.sid,
        SmsSid: entry.sid,
        AccountSid: this.accountSid,
        From: from,
        To: entry.to,
        ApiVersion: '2010-04-01',
      };
      this.callBack(statusCallback, [
        { ...base, MessageStatus: 'sent', SmsStatus: 'sent' },
        { ...base, ...final, SmsStatus: final.MessageStatus },
      ]);
    }
    return { status: 201, body: this.messageResource(entry, form.get('MessagingServiceSid')) };
  }

  private createCall(form: Form): Answer {
    const to = form.get('To');
    const refused = this.refusal(to);
    if (refused !== undefined) return refused;
    const twiml = form.get('Twiml') ?? '';
    const statusCallback = form.get('StatusCallback') ?? undefined;
    const entry: PeerCall = {
      ...this.entry('CA', to ?? '', form.get('From') ?? '', statusCallback),
      kind: 'call',
      say: sayOf(twiml),
      twiml,
    };
    this.record(entry);
    if (statusCallback !== undefined) {
      const seconds = Math.max(1, Math.ceil(entry.say.length / 15));
      this.callBack(statusCallback, [
        {
          CallSid: entry.sid,
          AccountSid: this.accountSid,
          From: entry.from,
          To: entry.to,
          CallStatus: 'completed',
          CallDuration: String(seconds),
          Duration: String(Math.ceil(seconds / 60)),
          Direction: 'outbound-api',
          ApiVersion: '2010-04-01',
        },
      ]);
    }
    const now = new Date().toUTCString();
    return {
      status: 201,
      body: {
        sid: entry.sid,
        account_sid: this.accountSid,
        to: entry.to,
        from: entry.from,
        status: 'queued',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        price: null,
        price_unit: 'USD',
        duration: null,
        date_created: now,
        date_updated: now,
        uri: `/2010-04-01/Accounts/${this.accountSid}/Calls/${entry.sid}.json`,
      },
    };
  }

  /** `GET …/Messages.json?To=&From=&DateSent>=`: the messages the peer keeps, newest first. */
  private listMessages(query: URLSearchParams): Answer {
    const to = query.get('To');
    const from = query.get('From');
    const after = query.get('DateSent>');
    const since = after === null ? 0 : Date.parse(after);
    const messages = this.inboxes.sms
      .messages()
      .filter((m) => (to === null || m.to === to) && (from === null || m.from === from))
      .filter((m) => Date.parse(m.receivedAt) >= (Number.isNaN(since) ? 0 : since))
      .reverse()
      .map((m) => this.messageResource(m, null));
    const uri = `/2010-04-01/Accounts/${this.accountSid}/Messages.json`;
    return {
      status: 200,
      body: {
        messages,
        page: 0,
        page_size: messages.length,
        first_page_uri: uri,
        next_page_uri: null,
        previous_page_uri: null,
        uri,
      },
    };
  }

  private messageResource(entry: PeerSms, messagingServiceSid: string | null) {
    const date = new Date(entry.receivedAt).toUTCString();
    const uri = `/2010-04-01/Accounts/${this.accountSid}/Messages/${entry.sid}.json`;
    return {
      sid: entry.sid,
      account_sid: this.accountSid,
      to: entry.to,
      from: entry.from,
      body: entry.body,
      status: 'queued',
      num_segments: '1',
      num_media: String(entry.mediaUrls.length),
      direction: 'outbound-api',
      api_version: '2010-04-01',
      price: null,
      price_unit: 'USD',
      error_code: null,
      error_message: null,
      messaging_service_sid: messagingServiceSid,
      date_created: date,
      date_updated: date,
      date_sent: date,
      uri,
      subresource_uris: { media: uri.replace(/\.json$/, '/Media.json') },
    };
  }

  private entry(prefix: string, to: string, from: string, statusCallback: string | undefined): Entry {
    const trackingId = trackingIdOf(statusCallback);
    return {
      id: String(this.nextId++),
      receivedAt: new Date().toISOString(),
      ...(trackingId !== undefined ? { trackingId } : {}),
      sid: `${prefix}${hex(16)}`,
      to,
      from,
      ...(statusCallback !== undefined ? { statusCallback } : {}),
    };
  }

  private record(entry: PeerEntry): void {
    if (entry.kind === 'sms') this.inboxes.sms.add(entry);
    else this.inboxes.call.add(entry);
  }

  /**
   * An SMS from a phone to one of the account's numbers, delivered as Twilio would: the messaging
   * webhook, form-encoded and signed, posted to `url`. Answers the status the receiver gave. Each
   * `<Message>` of a 2xx TwiML answer is sent back to the phone from that number, as Twilio sends
   * it, and kept with the tracking id of the last message sent to the phone (the conversation it
   * answers).
   */
  async inboundSms(url: string, message: { from: string; to: string; body: string }): Promise<number> {
    const sid = `SM${hex(16)}`;
    const params = {
      ToCountry: 'US',
      SmsMessageSid: sid,
      NumMedia: '0',
      SmsSid: sid,
      SmsStatus: 'received',
      Body: message.body,
      To: message.to,
      NumSegments: '1',
      MessageSid: sid,
      AccountSid: this.accountSid,
      From: message.from,
      ApiVersion: '2010-04-01',
    };
    const response = await this.signedPost(url, params);
    const answer = (await response.text()).slice(0, MAX_TWIML);
    if (response.ok)
      for (const body of messagesOf(answer)) {
        const conversation = this.inboxes.sms.messages().findLast((m) => m.to === message.from)?.trackingId;
        const entry = this.entry('SM', message.from, message.to, undefined);
        this.record({
          ...entry,
          ...(conversation !== undefined ? { trackingId: conversation } : {}),
          kind: 'sms',
          body,
          mediaUrls: [],
        });
      }
    return response.status;
  }

  /** A form post signed as Twilio signs its webhooks (X-Twilio-Signature over URL and parameters). */
  private signedPost(url: string, params: Record<string, string>): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'TwilioProxy/1.1',
        'x-twilio-signature': getExpectedTwilioSignature(this.authToken, url, params),
      },
      body: new URLSearchParams(params).toString(),
      signal: this.aborts.signal,
    });
  }

  /** Posts the callbacks in order, each signed, each retried a few times while it fails. */
  private callBack(url: string, callbacks: readonly Record<string, string>[]): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void (async () => {
        for (const params of callbacks) if (!(await this.post(url, params))) return;
      })();
    }, this.callbackDelayMs);
    this.timers.add(timer);
  }

  private async post(url: string, params: Record<string, string>): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      if (this.aborts.signal.aborted) return false;
      const ok = await this.signedPost(url, params).then(
        (response) => response.status < 500,
        () => false,
      );
      if (ok) {
        this.callbacks++;
        return true;
      }
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || this.aborts.signal.aborted) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resolve();
        }, delay);
        this.timers.add(timer);
      });
    }
  }
}

/** An SMS as `GET /dev/outbox/sms` shows it: `to`, `from`, `body`, `mediaUrls`. */
export const smsOutboxView = ({ id, receivedAt, trackingId, to, from, body, mediaUrls }: PeerSms) => ({
  id,
  receivedAt,
  trackingId,
  to,
  from,
  body,
  mediaUrls,
});

/** A call as `GET /dev/outbox/call` shows it. */
export const callOutboxView = ({ id, receivedAt, trackingId, to, from, say }: PeerCall) => ({
  id,
  receivedAt,
  trackingId,
  to,
  from,
  say,
});
