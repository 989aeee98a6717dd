// A sending thread's entry (EMAIL_SEND_THREADS): the SMTP pools of RelayPools, off the main thread.
import { serveThread } from '@notify/platform/threads';
import type Mail from 'nodemailer/lib/mailer';
import { workerData } from 'node:worker_threads';
import { type SentMail, SmtpPools, type SmtpPoolSettings } from './smtp-pools';
import type { SmtpThreadCall } from './smtp-threads';

const pools = new SmtpPools(workerData as SmtpPoolSettings);

/** Structured cloning turns a Buffer into a Uint8Array, which nodemailer would not take as content. */
const withBuffers = (mail: Mail.Options): Mail.Options => ({
  ...mail,
  attachments: mail.attachments?.map((attachment) => {
    const content: unknown = attachment.content;
    return content instanceof Uint8Array && !Buffer.isBuffer(content)
      ? { ...attachment, content: Buffer.from(content.buffer, content.byteOffset, content.byteLength) }
      : attachment;
  }),
});

serveThread<SmtpThreadCall, SentMail>(({ relay, key, mail }) => pools.send(relay, withBuffers(mail), key));
