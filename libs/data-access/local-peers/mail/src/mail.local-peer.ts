import { LOCAL_PEER_KEEP, type LocalPeer } from '@notify/local-peer-kit';
import { createServer } from 'node:net';
import { reportComplaints } from './complaint-reporter';
import { MailCatcher, mailOutboxView } from './mail-catcher';
import { rehearsalRefusals } from './rehearsal';

/** The inbound mail domain of a newcomer's all-in-one (no DNS needed: mail reaches the listener directly). */
const LOCAL_MAIL_DOMAIN = 'inbound.notify.localhost';

/**
 * A port free on loopback right now, which the inbound listener binds a moment later. Drawn from
 * below the kernel's ephemeral range (32768 and up on Linux): a port the kernel just handed out
 * and took back is the next one it gives an outgoing connection, which could take it meanwhile.
 */
async function freeLoopbackPort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }
  throw new Error('no free loopback port for the inbound SMTP listener; set INBOUND_SMTP_PORT');
}

/** The SMTP catcher, for email without an SMTP relay configured; its mail is the email outbox. */
export const mailLocalPeer: LocalPeer = {
  channels: ['email'],
  async serve(config, logger) {
    if (config.email.smtpUrl !== undefined) return undefined;
    const catcher = new MailCatcher({ keep: LOCAL_PEER_KEEP, refuseRecipient: rehearsalRefusals() });
    await catcher.start(config.dev.mailCatcherPort);
    catcher.onMessage((mail) =>
      logger.info(
        { mailId: mail.id, to: mail.to, subject: mail.subject },
        'mail caught (see /dev/outbox/email)',
      ),
    );
    // Rehearsals: @bounce.test is refused, @tempfail.test twice; mail to
    // @complaint.test is reported back as a complaint (ARF) to the inbound listener, which
    // the all-in-one runs on INBOUND_SMTP_PORT (a free port when unset), for a local mail domain
    // (replies to caught mail can be sent there with any SMTP client). The catcher's complaints
    // count: it is a feedback loop the listener trusts.
    const inboundSmtpPort = config.inbound.smtpPort ?? (await freeLoopbackPort());
    reportComplaints(catcher, { host: '127.0.0.1', port: inboundSmtpPort });
    return {
      config: {
        ...config,
        email: { ...config.email, smtpUrl: catcher.url },
        inbound: {
          ...config.inbound,
          smtpPort: inboundSmtpPort,
          mailDomain: config.inbound.mailDomain ?? LOCAL_MAIL_DOMAIN,
          // The catcher reports over loopback, so that address is a feedback loop here.
          feedbackLoopSources: [...config.inbound.feedbackLoopSources, '127.0.0.1'],
        },
      },
      outboxes: [
        {
          channel: 'email',
          messages: () => catcher.messages().map(mailOutboxView),
          remove: (ids) => catcher.remove(ids.map(Number)),
        },
      ],
    };
  },
};
