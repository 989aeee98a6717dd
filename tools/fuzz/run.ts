// Runs schemathesis (path in $SCHEMATHESIS, installed by tools/fuzz/fuzz.sh) against a fresh
// all-in-one service and the committed OpenAPI document, once with an API key and once as the
// bootstrap owner signed in with a JWT. Fixed seed, bounded examples: the same cases every run.
// Prints schemathesis' report and the number of requests it made.
import { aMemberToken, startService, tempDir } from '@notify/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

const ROOT = join(__dirname, '../..');
const SEED = 20261123;
/** Cases per operation, shared between the two authentication schemes (half each). */
const EXAMPLES = Number(process.env.FUZZ_EXAMPLES ?? 20);
const PER_SCHEME = Math.max(1, Math.round(EXAMPLES / 2));
/** What counts as a failure: 5xx, a status, content type or body the document does not declare. */
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
];

/** Runs a command, its output passed through; resolves to its exit code. */
function run(command: string, args: readonly string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** Requests made: one ScenarioFinished event per test case, each with its recorded interactions. */
async function requestsMade(ndjson: string): Promise<number> {
  const text = await readFile(ndjson, 'utf8').catch(() => '');
  let requests = 0;
  for (const line of text.split('\n')) {
    if (!line.includes('"ScenarioFinished"')) continue;
    const event = JSON.parse(line) as { ScenarioFinished?: { recorder?: { interactions?: object } } };
    requests += Object.keys(event.ScenarioFinished?.recorder?.interactions ?? {}).length;
  }
  return requests;
}

async function main(): Promise<number> {
  const schemathesis = process.env.SCHEMATHESIS;
  if (schemathesis === undefined) throw new Error('run through tools/fuzz/fuzz.sh (SCHEMATHESIS is unset)');
  const data = await tempDir('notify-fuzz-');
  const apiKey = `notify_sk_${randomBytes(24).toString('base64url')}`;
  const jwtSecret = randomBytes(32).toString('base64url');
  const service = await startService('all-in-one', {
    DATA_DIR: join(data.path, 'service'),
    BOOTSTRAP_API_KEY: apiKey,
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'warn',
    // The fuzzer sends malformed credentials on purpose; the failed-login limit must not shut it out.
    AUTH_FAILURES_PER_MINUTE: '1000000',
    // Nor may the tracking links' per-address limit: it would answer 429 before the routes run.
    TRACKING_REQUESTS_PER_MINUTE: '1000000',
  });
  try {
    const environments = (await (
      await fetch(`${service.baseUrl}/environments`, { headers: { authorization: `Bearer ${apiKey}` } })
    ).json()) as { clientId: string }[];
    const envId = environments[0]?.clientId ?? '';
    const config = join(data.path, 'schemathesis.toml');
    // Browser-client paths carry the real client id, so the fuzzed requests reach the handlers.
    // Every run starts from nothing: no state is kept between runs (no cache, no example database).
    await writeFile(config, `[cache]\nenabled = false\n\n[parameters]\nclientId = "${envId}"\n`);
    const started = Date.now();
    const key: Scheme = { NOTIFY_AUTH: 'key', NOTIFY_API_KEY: apiKey, NOTIFY_ENV_ID: envId };
    // The bootstrap owner (BOOTSTRAP_OWNER_EMAIL's default), valid for longer than any run.
    const member: Scheme = {
      ...key,
      NOTIFY_AUTH: 'jwt',
      NOTIFY_JWT: aMemberToken({ email: 'owner@notify.localhost', secret: jwtSecret, expiresIn: 6 * 3_600 }),
    };
    // Revoking keys goes last: the fuzzer finds key ids (GET /keys) and may revoke its own. The
    // member's passes add the fuzzing phase only: the coverage phase's boundary values exercise the
    // same handlers as with a key, and would double the run. The browser-client routes take neither
    // scheme: the key's pass covers them.
    const all = 'examples,coverage,fuzzing';
    const passes: [Scheme, string, string[]][] = [
      [key, all, ['--exclude-operation-id', REVOKE]],
      [member, 'fuzzing', ['--exclude-operation-id', REVOKE, '--exclude-path-regex', BROWSER_PATHS]],
      [key, all, ['--include-operation-id', REVOKE]],
      [member, 'fuzzing', ['--include-operation-id', REVOKE]],
    ];
    let code = 0;
    let requests = 0;
    for (const [index, [scheme, phases, selection]] of passes.entries()) {
      const ndjson = join(data.path, `events-${index}.ndjson`);
      process.stdout.write(
        `\nfuzz: pass ${index + 1} of ${passes.length}, as ${scheme.NOTIFY_AUTH === 'jwt' ? 'the owner (JWT)' : 'an API key'}\n`,
      );
      code ||= await fuzz(schemathesis, service.baseUrl, scheme, config, ndjson, [
        ...selection,
        '--phases',
        phases,
      ]);
      requests += await requestsMade(ndjson);
    }
    process.stdout.write(
      `\nfuzz: ${requests} requests in ${Math.round((Date.now() - started) / 1000)} s, ${code === 0 ? 'no failures' : 'FAILED'}\n`,
    );
    return code;
  } finally {
    await service.stop();
    if (process.env.FUZZ_KEEP === undefined) await data.remove();
    else process.stdout.write(`fuzz: kept ${data.path}\n${service.output()}`);
  }
}

const REVOKE = 'revokeAPIKey';
const BROWSER_PATHS = '^/\\{clientId\\}/';

/** How the hooks (notify_auth.py) authenticate a pass: NOTIFY_AUTH is `key` or `jwt`. */
type Scheme = Record<'NOTIFY_AUTH' | 'NOTIFY_API_KEY' | 'NOTIFY_ENV_ID', string> & { NOTIFY_JWT?: string };

function fuzz(
  schemathesis: string,
  baseUrl: string,
  scheme: Scheme,
  config: string,
  ndjson: string,
  selection: readonly string[],
): Promise<number> {
  return run(
    schemathesis,
    [
      '--config-file',
      config,
      'run',
      join(ROOT, 'docs/openapi.json'),
      '--url',
      baseUrl,
      '--seed',
      String(SEED),
      '--max-examples',
      String(PER_SCHEME),
      '--checks',
      CHECKS.join(','),
      '--max-response-time',
      '2',
      '--workers',
      '2',
      '--generation-database',
      'none',
      '--report',
      'ndjson',
      '--report-ndjson-path',
      ndjson,
      '--no-color',
      ...selection,
      ...process.argv.slice(2),
    ],
    {
      SCHEMATHESIS_HOOKS: 'notify_auth',
      // notify_auth (the hooks) and python/sitecustomize.py (a CPython 3.11 workaround, see there).
      PYTHONPATH: `${__dirname}${delimiter}${join(__dirname, 'python')}`,
      ...scheme,
      NOTIFY_BASE_URL: baseUrl,
    },
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fuzz: ${String(error)}\n`);
    process.exit(1);
  },
);
