// One benchmark per pipeline stage, each against a raw baseline measured in the same run: the
// router, the email sender, the recorder, the push sender and the SMS sender, each alone in its own process on the embedded
// backends, draining a pre-filled topic (see the *.stage.ts files for what each baseline does).
// The SMTP sink runs here, outside the measured process. Prints throughput and CPU per message by
// thread (main JS thread, ClickHouse's insert and merge threads, LMDB and libuv's, V8's);
// BENCH_STAGE_PROFILE=<dir> also writes a --cpu-prof profile of each stage run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Figure, report, runBench } from '../report';
import { ApnsPeer } from '@notify/local-peer-push';
import { TwilioPeer } from '@notify/local-peer-twilio';
import { SmtpSink } from '../service/smtp-sink';
import type { Drained } from './stage-harness';

const REGISTER = join(__dirname, '../../testing/register-ts.cjs');
const PROFILE_DIR = process.env.BENCH_STAGE_PROFILE;
/** BENCH_STAGES=push,router runs only those stages. */
const ONLY = process.env.BENCH_STAGES?.split(',').map((name) => name.trim());

interface StageResult extends Drained {
  readonly what: string;
  readonly rate: number;
}

const STAGES = [
  { file: 'router.stage.ts', unit: 'sends/s', what: 'router: send.requests → jobs + events' },
  { file: 'sender.stage.ts', unit: 'emails/s', what: 'email sender: delivery.email → SMTP + events' },
  { file: 'recorder.stage.ts', unit: 'events/s', what: 'recorder: events → ClickHouse log' },
  { file: 'push.stage.ts', unit: 'pushes/s', what: 'push sender: delivery.mobile_push → APNs peer + events' },
  {
    file: 'sms.stage.ts',
    unit: 'SMS/s',
    what: 'SMS sender: delivery.sms → Twilio peer + events, signed receipts back',
  },
] as const;

function run(file: string, mode: 'stage' | 'baseline', env: Record<string, string>): Promise<StageResult> {
  const profile =
    PROFILE_DIR !== undefined && mode === 'stage' ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '-r', REGISTER, join(__dirname, file), mode], {
    env: { ...process.env, ...env, TZ: 'UTC' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`${file} ${mode} failed (exit ${code})`));
      else resolve(JSON.parse(line) as StageResult);
    });
  });
}

/** CPU microseconds per message, by thread group, largest first: "main 412, MergeMutate 96, …". */
function cpuNote(result: StageResult): string {
  const total = Object.values(result.threads).reduce((sum, s) => sum + s, 0);
  const parts = Object.entries(result.threads)
    .map(([name, seconds]) => [name, (seconds / result.messages) * 1e6] as const)
    .filter(([, us]) => us >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => `${name} ${Math.round(us)}`);
  return `CPU µs/message ${Math.round((total / result.messages) * 1e6)} (${parts.join(', ')})`;
}

async function main(): Promise<void> {
  const sink = new SmtpSink();
  const smtp = await sink.start();
  // The push stage's APNs peer, here too: its work is not the measured process's.
  const apns = new ApnsPeer({ keep: 100 });
  await apns.start();
  // The SMS stage's Twilio peer, which also posts the signed receipts back to the stage.
  const twilio = new TwilioPeer({ keep: 1 });
  await twilio.start();
  const figures: Figure[] = [];
  try {
    for (const stage of STAGES.filter(
      (s) => ONLY === undefined || ONLY.some((name) => s.file.startsWith(name)),
    )) {
      const env = {
        STAGE_SMTP_URL: smtp,
        STAGE_APNS_URL: apns.url,
        STAGE_APNS_CA: apns.ca,
        STAGE_APNS_KEY: JSON.stringify(apns.registerKey()),
        STAGE_TWILIO_URL: twilio.url,
        STAGE_TWILIO_SID: twilio.accountSid,
        STAGE_TWILIO_TOKEN: twilio.authToken,
      };
      const baseline = await run(stage.file, 'baseline', env);
      const measured = await run(stage.file, 'stage', env);
      figures.push(
        {
          name: stage.what,
          value: measured.rate,
          unit: stage.unit,
          baseline: baseline.rate,
          note: `${measured.messages.toLocaleString('en-US')} in ${measured.seconds.toFixed(1)} s; ${cpuNote(measured)}`,
        },
        {
          name: `  baseline: ${baseline.what.replace(/ baseline$/, '')}`,
          value: baseline.rate,
          unit: stage.unit,
          note: cpuNote(baseline),
        },
      );
    }
  } finally {
    await Promise.all([sink.stop(), apns.stop(), twilio.stop()]);
  }
  report('stages', 'each stage alone on the embedded backends, draining a pre-filled topic', figures);
}

runBench(main);
