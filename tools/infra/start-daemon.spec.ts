import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * start_daemon (tools/infra/lib.sh) records the pid of the service it started, whether or not the
 * shell that runs it has job control: with it, each background job leads its own process group and
 * setsid forks instead of exec'ing in place, so `$!` names a setsid that has already exited (a CI
 * run once took stripe-mock for dead that way, and left it running).
 */
describe('start_daemon (tools/infra/lib.sh)', () => {
  const data = mkdtempSync(join(tmpdir(), 'notify-start-daemon-'));
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  /** Starts `sleep` through start_daemon; answers the pid recorded, the live sleep's pid, and $!. */
  const start = (jobControl: boolean, seconds: string) =>
    execFileSync(
      'bash',
      [
        '-c',
        `set ${jobControl ? '-m' : '+m'}
         source "$0/lib.sh"
         start_daemon sleeper /usr/bin/sleep ${seconds} >/dev/null
         recorded="$(cat "$(pid_file sleeper)")"
         live="$(pgrep -f -x '/usr/bin/sleep ${seconds}')"
         echo "$recorded $live"
         kill "$live"`,
        __dirname,
      ],
      { encoding: 'utf8', env: { ...process.env, NOTIFY_INFRA_DATA: data } },
    )
      .trim()
      .split(' ');

  it.each([
    ['with job control (setsid forks)', true, '30.25'],
    ['without job control (setsid execs in place)', false, '30.5'],
  ])('records the live service’s pid %s', (_, jobControl, seconds) => {
    const [recorded, live] = start(jobControl, seconds);
    expect(live).toMatch(/^\d+$/);
    expect(recorded).toBe(live);
  });
});
