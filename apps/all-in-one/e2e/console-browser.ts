import AxeBuilder from '@axe-core/playwright';
import { chromiumPath, tempDir } from '@notify/testing';
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type AllInOne, type AllInOneOptions, bootstrapKey, startAllInOne } from './all-in-one';

const ROOT = join(__dirname, '../../..');

/**
 * Builds the console unless its build is current (the build script compares a hash of its inputs),
 * so a single e2e run from the sources finds it; CI has built it already.
 */
export async function ensureConsoleBuilt(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(ROOT, 'tools/build/console.mjs')], { cwd: ROOT });
}

/** Policy violations and script errors a page reports, gathered from the moment it opens. */
export function watchPage(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|Refused to/.test(message.text()))
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { problems };
}

/** The reports no page should cause: not a 401 or 403 the page expects and shows (the browser logs every failed fetch). */
export const unexpected = (problems: string[]): string[] =>
  problems.filter(
    (p) =>
      !/Failed to load resource: the server responded with a status of 40[13]/.test(p) &&
      // An email's open-tracking pixel, refused by the email frame's policy: viewing an email in the
      // console must not count as its recipient opening it.
      !/Loading the image 'http:\/\/[^']*\/t\/o\/[^']*' violates the following Content Security Policy directive: "img-src data: https:"/.test(
        p,
      ),
  );

/** axe-core's WCAG 2.1 A/AA checks on the page as it is: the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Whether the page fits its viewport's width (nothing scrolls sideways but what is meant to). */
export const fitsWidth = (page: Page): Promise<boolean> =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

/**
 * A screenshot of the page at 1280×800, into CONSOLE_SCREENSHOTS (`npm run console:screenshots`
 * writes the README's into docs/console) or a scratch directory, to show the page renders.
 */
export async function screenshot(page: Page, name: string, scratch: string): Promise<void> {
  const dir = process.env['CONSOLE_SCREENSHOTS'] ?? scratch;
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** A browser page of its own profile (no cookies, no storage), and what it reported going wrong. */
export interface ConsolePage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly problems: string[];
  close(): Promise<void>;
}

/**
 * The all-in-one service as `npm start` runs it with the console built, and Chromium: what every
 * console browser suite starts from.
 */
export interface ConsoleHarness {
  readonly app: AllInOne;
  /** The first environment's API key. */
  readonly key: string;
  /** Where screenshots go when CONSOLE_SCREENSHOTS is unset. */
  readonly shots: string;
  open(width?: number, height?: number): Promise<ConsolePage>;
  /** Opens the console and signs in with the API key; resolves on the first page (Logs). */
  signInWithKey(page: Page): Promise<void>;
  /**
   * Signs in as a member with a JWT of the service's JWT_SECRET (`aMemberToken` from @notify/testing),
   * exchanged for the session cookie; resolves on the first page.
   */
  signInWithJwt(page: Page, jwt: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startConsoleHarness(
  prefix: string,
  options: AllInOneOptions = {},
): Promise<ConsoleHarness> {
  const executablePath = chromiumPath();
  await ensureConsoleBuilt();
  const app = await startAllInOne(prefix, options);
  const key = await bootstrapKey(app);
  const shots = await tempDir('notify-console-shots-');
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  } catch (error) {
    await app.stop();
    await shots.remove();
    throw error;
  }
  const launched = browser;
  return {
    app,
    key,
    shots: shots.path,
    async open(width = 1280, height = 800) {
      const context = await launched.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const { problems } = watchPage(page);
      return { page, context, problems, close: () => context.close() };
    },
    async signInWithKey(page) {
      await page.goto(`${app.baseUrl}/console`);
      await page.getByLabel('Secret key').fill(key);
      await page.getByRole('button', { name: 'Sign in with the key' }).click();
      await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    },
    async signInWithJwt(page, jwt) {
      await page.goto(`${app.baseUrl}/console`);
      await page.getByLabel('Identity token (JWT)').fill(jwt);
      await page.getByRole('button', { name: 'Sign in with the token' }).click();
      await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    },
    async stop() {
      await launched.close();
      await app.stop();
      await shots.remove();
    },
  };
}
