import { eventually, sleep, WebhookReceiver } from '@notify/testing';
import type { ChannelsContext } from './channels.suite';
import { verifiedPayload } from './webhook-signatures';

interface Payload {
  eventType: string;
  userId: string;
  notificationId: string;
  trackingId: string;
  from?: string;
  to?: string;
  text?: string;
  receivedAt?: string;
  lastTrackingId?: string;
}

/** A US number of the 555 range no other test texts. */
const freshNumber = () => `+1415555${String(2_000 + Math.floor(Math.random() * 7_000))}`;

/**
 * Inbound SMS: the Twilio peer delivers replies to the inbound endpoint, signed, as
 * Twilio does; STOP opts the number out (later sends fail 21610 without reaching the provider),
 * START opts it back in, any other text is forwarded with the last send's tracking id and gets
 * that send's autoReply once. Unsigned or wrongly signed posts are refused and record nothing.
 */
export function inboundSmsSuite(context: () => ChannelsContext): void {
  describe('inbound SMS', () => {
    const receiver = new WebhookReceiver();
    let secret = '';
    const service = '+15005550006';
    const inboundUrl = () => `${context().topology.env['PUBLIC_URL']}/inbound/twilio/sms`;
    const reply = (from: string, body: string) =>
      context().topology.twilio.inboundSms(inboundUrl(), { from, to: service, body });
    const webhookFor = (eventType: string, from: string) =>
      eventually(() => {
        const found = receiver.received
          .map((r) => verifiedPayload<Payload>(r, secret))
          .find((p) => p.eventType === eventType && p.from === from);
        if (found === undefined) throw new Error(`no ${eventType} from ${from} yet`);
        return found;
      }, 20_000);
    const textTo = (number: string, message: string, autoReply?: string) =>
      context().client.send({
        type: 'alerts',
        to: { id: `sms-${number}`, number },
        forceChannels: ['SMS' as never],
        sms: { message, ...(autoReply !== undefined ? { autoReply: { message: autoReply } } : {}) },
      });
    const messagesTo = (number: string) =>
      context()
        .topology.twilio.sms()
        .filter((m) => m.to === number);

    beforeAll(async () => {
      await receiver.start();
      const { topology } = context();
      const created = await fetch(`${topology.baseUrl}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          webhook: receiver.url,
          events: ['SMS_INBOUND', 'SMS_UNSUBSCRIBE', 'SMS_SUBSCRIBE'],
        }),
      });
      secret = ((await created.json()) as { secret: string }).secret;
    });

    afterAll(() => receiver.stop());

    it('forwards a reply with the last send’s tracking id and sends its autoReply once', async () => {
      const number = freshNumber();
      const { trackingId } = await textTo(number, 'Your table is ready', 'Thanks, see you soon!');
      await context().logOf(trackingId, (l) => l.sms_sent_at !== undefined);
      expect(await reply(number, 'On my way')).toBe(200);
      const inbound = await webhookFor('SMS_INBOUND', number);
      expect(inbound).toMatchObject({
        from: number,
        to: service,
        text: 'On my way',
        lastTrackingId: trackingId,
        userId: `sms-${number}`,
        notificationId: 'alerts',
        receivedAt: expect.any(String),
      });
      const logged = await context().logOf(
        inbound.trackingId,
        (l) => l.sms_inbound_webhook_delivered === true,
      );
      expect(logged).toMatchObject({
        sms_inbound_text: 'On my way',
        sms_inbound_from: number,
        sms_inbound_webhook_res: '200',
      });
      // Twilio sends the webhook answer's <Message> from the number written to; the peer keeps it
      // in the send's conversation, so the environment's /dev/outbox/sms shows it.
      await eventually(
        () =>
          expect(messagesTo(number).find((m) => m.body === 'Thanks, see you soon!')).toMatchObject({
            from: service,
            trackingId,
          }),
        20_000,
      );
      expect(await context().logOf(trackingId, (l) => l.sms_replied_at !== undefined)).toMatchObject({
        sms_replied_text: 'Thanks, see you soon!',
        sms_replied_to: number,
      });

      // A number configured for one environment names it in the webhook URL.
      const [environment] = await context().client.environments.listEnvironments();
      const configured = `${inboundUrl()}?envId=${environment?.clientId ?? ''}`;
      expect(
        await context().topology.twilio.inboundSms(configured, {
          from: number,
          to: service,
          body: 'Also, two more people',
        }),
      ).toBe(200);
      await eventually(
        () => expect(receiver.received.filter((r) => r.body.includes('two more people'))).toHaveLength(1),
        20_000,
      );
      await sleep(1_000);
      expect(messagesTo(number).filter((m) => m.body === 'Thanks, see you soon!')).toHaveLength(1);
    });

    it('opts a number out on STOP (later sends fail 21610 without reaching Twilio) and back in on START', async () => {
      const number = freshNumber();
      const first = await textTo(number, 'Welcome');
      await context().logOf(first.trackingId, (l) => l.sms_sent_at !== undefined);
      expect(await reply(number, '  stop ')).toBe(200);
      expect(await webhookFor('SMS_UNSUBSCRIBE', number)).toMatchObject({
        userId: `sms-${number}`,
        lastTrackingId: first.trackingId,
      });

      const blocked = await textTo(number, 'Blocked?');
      expect(await context().logOf(blocked.trackingId, (l) => l.sms_failed_code !== undefined)).toMatchObject(
        {
          sms_failed_code: '21610',
        },
      );
      expect(messagesTo(number).map((m) => m.body)).toEqual(['Welcome']);

      expect(await reply(number, 'START')).toBe(200);
      await webhookFor('SMS_SUBSCRIBE', number);
      const again = await textTo(number, 'Welcome back');
      await context().logOf(again.trackingId, (l) => l.sms_sent_at !== undefined);
      expect(messagesTo(number).map((m) => m.body)).toEqual(['Welcome', 'Welcome back']);
    });

    it('refuses unsigned and wrongly signed posts, recording nothing', async () => {
      const number = freshNumber();
      await textTo(number, 'Hello');
      const form = new URLSearchParams({
        From: number,
        To: service,
        Body: 'STOP',
        AccountSid: 'AC0',
      }).toString();
      for (const signature of [undefined, 'bm90IGEgc2lnbmF0dXJl']) {
        const answer = await fetch(inboundUrl(), {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(signature !== undefined ? { 'x-twilio-signature': signature } : {}),
          },
          body: form,
        });
        expect(answer.status).toBe(401);
      }
      await sleep(1_000);
      expect(receiver.received.some((r) => r.body.includes(number))).toBe(false);
      const still = await textTo(number, 'Still subscribed');
      await context().logOf(still.trackingId, (l) => l.sms_sent_at !== undefined);
    });
  });
}
