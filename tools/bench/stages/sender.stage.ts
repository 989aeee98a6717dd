// The email sender alone, draining a pre-filled `delivery.email` (the router's output for MESSAGES
// sends) into the SMTP sink at STAGE_SMTP_URL (run by stages.bench.ts in its own process), with its
// real modules on the embedded backends. Baseline (`baseline` argument): plain nodemailer with the
// same pool (SMTP_POOL_SIZE connections) sending the same emails, 64 at a time.
import { Topics } from '@notify/domain';
import { EmailSenderModule } from '@notify/sender-email-feature';
import nodemailer from 'nodemailer';
import { randomBytes } from 'node:crypto';
import {
  drain,
  drainSender,
  emailJob,
  emit,
  keyOf,
  MESSAGES,
  prefill,
  runStage,
  workspace,
} from './stage-harness';

const SMTP_URL = process.env.STAGE_SMTP_URL ?? '';

async function baseline(): Promise<void> {
  const ws = await workspace();
  const pool = nodemailer.createTransport({
    host: new URL(SMTP_URL).hostname,
    port: Number(new URL(SMTP_URL).port),
    secure: false,
    pool: true,
    maxConnections: ws.config.email.poolSize,
    maxMessages: 1_000,
  });
  let sent = 0;
  let next = 0;
  const result = drain(() => sent, MESSAGES);
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < MESSAGES) {
        const job = emailJob(ws.tenant, next++);
        await pool.sendMail({
          from: { name: 'Notify', address: ws.config.email.fromAddress },
          to: job.to,
          subject: job.subject,
          html: job.html,
          messageId: `<${job.trackingId}@notify.localhost>`,
          headers: { 'X-Notify-Tracking-Id': job.trackingId },
        });
        sent++;
      }
    }),
  );
  emit({ what: 'email sender baseline', ...(await result) });
  pool.close();
  await ws.remove();
}

async function stage(): Promise<void> {
  const ws = await workspace({ SMTP_URL, SECRETS_KEY: randomBytes(32).toString('base64') });
  await prefill(ws, [Topics.delivery('EMAIL'), Topics.events], MESSAGES, (i) => {
    const value = emailJob(ws.tenant, i);
    return [{ topic: Topics.delivery('EMAIL'), key: keyOf(ws.tenant, value.userId), value }];
  });
  await drainSender(ws, 'email sender', 'EMAIL', EmailSenderModule);
}

runStage({ baseline, stage });
