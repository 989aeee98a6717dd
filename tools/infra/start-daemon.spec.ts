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

  /**
   * Starts `command` through start_daemon; answers the pid recorded and the pid of the process whose
   * whole command line is `runs`.
   */
  const start = (jobControl: boolean, command: string, runs: string) =>
    execFileSync(
      'bash',
      [
        '-c',
        `set ${jobControl ? '-m' : '+m'}
         source "$0/lib.sh"
         start_daemon sleeper ${command} >/dev/null
         recorded="$(cat "$(pid_file sleeper)")"
         live="$(pgrep -f -x '${runs}')"
         echo "$recorded $live"
         kill "$live"`,
        __dirname,
      ],
      { encoding: 'utf8', env: { ...process.env, NOTIFY_INFRA_DATA: data } },
    )
      .trim()
      .split(' ');

  it.each([
    ['with job control (setsid forks)', true, '/usr/bin/sleep 30.25', '/usr/bin/sleep 30.25'],
    ['without job control (setsid execs in place)', false, '/usr/bin/sleep 30.5', '/usr/bin/sleep 30.5'],
    // A version manager's shim (pyenv's python3) execs the real program under another name.
    [
      'behind a shim that renames it, with job control',
      true,
      `bash -c 'exec -a /opt/real/sleeper sleep 30.75'`,
      '/opt/real/sleeper 30.75',
    ],
  ])('records the live service’s pid %s', (_, jobControl, command, runs) => {
    const [recorded, live] = start(jobControl, command, runs);
    expect(live).toMatch(/^\d+$/);
    expect(recorded).toBe(live);
  });
});
