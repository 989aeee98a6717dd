// The baseline of the cluster benchmark's CPU per email: plain nodemailer, with the pool the email
// sender uses (SMTP_POOL_SIZE connections), sending the email the service sends for SEND_BODY to
// the same SMTP sink, open loop at the same offered rate. Reads a JSON plan from argv[2]; after a
// warm-up, measures its own CPU (every thread) from the first measured email until the last one
// was accepted by the sink, and writes it as JSON to stdout.
import { loadAppConfig } from '@notify/platform';
import { sleep } from '@notify/testing';
import nodemailer from 'nodemailer';
import { randomUUID } from 'node:crypto';

export interface PlainNodemailerPlan {
  readonly smtpUrl: string;
  readonly rate: number;
  readonly warmup: number;
  readonly count: number;
}

export interface PlainNodemailerResult {
  readonly sent: number;
  readonly cpuSeconds: number;
}

async function main(plan: PlainNodemailerPlan): Promise<PlainNodemailerResult> {
  const { email } = loadAppConfig({});
  const url = new URL(plan.smtpUrl);
  const pool = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port),
    secure: false,
    pool: true,
    maxConnections: email.poolSize,
    maxMessages: Infinity,
  });
  let index = 0;
  const sendOne = () => {
    const i = index++;
    const trackingId = randomUUID();
    return pool.sendMail({
      from: { name: 'Notify', address: email.fromAddress },
      to: `user-${i}@example.com`,
      subject: 'Hello Bench',
      html: `<p>Hello Bench, this is message ${i}.</p>`,
      messageId: `<${trackingId}@notify.localhost>`,
      headers: { 'X-Notify-Tracking-Id': trackingId },
    });
  };
  /** `count` emails at `plan.rate` a second, each started on its schedule. */
  const offer = async (count: number) => {
    const started = Date.now();
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < count; i++) {
      const due = started + (i * 1000) / plan.rate;
      if (due > Date.now()) await sleep(due - Date.now());
      pending.push(sendOne());
    }
    await Promise.all(pending);
  };
  await offer(plan.warmup);
  const before = process.cpuUsage();
  await offer(plan.count);
  const cpu = process.cpuUsage(before);
  pool.close();
  return { sent: plan.count, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

main(JSON.parse(process.argv[2] ?? '{}') as PlainNodemailerPlan).then(
  (result) => {
    process.stdout.write(JSON.stringify(result));
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
