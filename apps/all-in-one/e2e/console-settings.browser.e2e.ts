import { aMemberToken } from '@notify/testing';
import type { Page } from 'playwright-core';
import {
  type ConsoleHarness,
  fitsWidth,
  screenshot,
  seriousViolations,
  startConsoleHarness,
  unexpected,
} from './console-browser';

const ADMIN = 'settings-admin@example.com';
const MEMBER = 'settings-member@example.com';

/** Each settings sub-page by its path, and a heading it shows once open. */
const SUB_PAGES = [
  ['environments', 'Environments'],
  ['members', 'Members'],
  ['domains', 'Sending domains'],
  ['numbers', 'Phone numbers'],
  ['push', 'Firebase Cloud Messaging (Android)'],
  ['billing', 'Account and plan'],
] as const;

/**
 * Besides the 401s and 403s the console expects, an environment without its own push credentials
 * answers their GET with 404 (the page shows "Not set"); the browser logs each.
 */
const problemsOf = (problems: string[]) =>
  unexpected(problems).filter(
    (p) => !/Failed to load resource: the server responded with a status of 404/.test(p),
  );

/**
 * The console's Settings pages in Chromium against the all-in-one: an admin changes environments,
 * keys, members and domains; a plain member sees every form read-only and is refused by the
 * service when trying anyway; an API key manages keys as an admin.
 */
describe('console settings in Chromium', () => {
  let harness: ConsoleHarness;

  beforeAll(async () => {
    harness = await startConsoleHarness('notify-console-settings-', {
      tenants: [
        {
          accountId: 'default',
          create: false,
          members: [
            { email: ADMIN, role: 'admin' },
            { email: MEMBER, role: 'member' },
          ],
        },
      ],
    });
  }, 180_000);

  afterAll(() => harness?.stop(), 60_000);

  const signInAs = (page: Page, email: string) =>
    harness.signInWithJwt(page, aMemberToken({ email, sub: `sub-${email}` }));

  /** Opens a settings sub-page through its own navigation and waits until nothing is loading. */
  async function openSubPage(page: Page, label: string, heading: string) {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: label }).click();
    await settled(page, heading);
  }

  async function settled(page: Page, heading: string) {
    await page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
    // Until nothing is loading (not waitForFunction: it evaluates a string, which the policy refuses).
    await page
      .getByRole('status')
      .filter({ hasText: /^Loading / })
      .first()
      .waitFor({ state: 'detached', timeout: 15_000 });
  }

  const goToSettings = async (page: Page) => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await settled(page, 'Environments');
  };

  it('lets an admin rename an environment, create a key seen once, invite a member and add a domain with its DNS records', async () => {
    const { page, context, problems } = await harness.open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.app.baseUrl });
    await signInAs(page, ADMIN);
    await goToSettings(page);
    expect(new URL(page.url()).pathname).toBe('/console/settings/environments');

    const settings = page.getByRole('form', { name: /^Settings of / }).first();
    await settings.getByLabel('Title').fill('Production (renamed)');
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 3, name: 'Production (renamed)' }).waitFor();
    // The environment picker in the top bar shows the new title too.
    await page.getByRole('option', { name: 'Production (renamed)' }).waitFor({ state: 'attached' });
    await screenshot(page, 'settings', harness.shots);

    // An own SMTP relay: shown back masked only, and never put back into an input.
    await page.getByRole('button', { name: 'Set SMTP relay' }).click();
    await page.getByLabel(/^SMTP URL/).fill('smtp://mailer:relay-password-1234@93.184.215.14:2525');
    await page.getByRole('button', { name: 'Save SMTP relay' }).click();
    await page.getByText('smtp://mailer:••••1234@93.184.215.14:2525').waitFor();
    expect(await page.content()).not.toContain('relay-password');
    await page.getByRole('button', { name: 'Remove SMTP relay' }).click();
    await page.getByRole('button', { name: 'Remove SMTP relay for good' }).click();
    await page.getByRole('button', { name: 'Set SMTP relay' }).waitFor();

    const newKey = page.getByRole('form', { name: 'New API key' });
    await newKey.getByLabel('Key name').fill('ci deploys');
    await newKey.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('.new-secret code');
    await secret.waitFor();
    const key = (await secret.textContent()) ?? '';
    expect(key).toMatch(/^notify_sk_/);
    // Copied from the keyboard: focus the button, press Enter.
    await page.getByRole('button', { name: 'Copy the new key' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.new-secret').getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('cell', { name: 'ci deploys', exact: true }).waitFor();
    expect(await page.content()).not.toContain(key);

    await openSubPage(page, 'Members and roles', 'Members');
    await page.getByText('Read-only. Changing roles needs the owner role.').waitFor();
    expect(await page.getByLabel(`Role of ${MEMBER}`).isDisabled()).toBe(true);
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill('newcomer@example.com');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('cell', { name: 'newcomer@example.com', exact: true }).waitFor();

    await openSubPage(page, 'Sending domains', 'Sending domains');
    const add = page.getByRole('form', { name: 'Add a sending domain' });
    await add.getByLabel('Domain or sender address').fill('settings-e2e.test');
    await add.getByRole('button', { name: 'Add domain' }).click();
    const domain = page.locator('article[data-domain="settings-e2e.test"]');
    await domain.waitFor({ timeout: 15_000 });
    await domain.getByText('pending').first().waitFor();
    const records = domain.locator('.dns-record');
    expect(await records.count()).toBeGreaterThan(0);
    const dkim = domain.locator('.dns-record').filter({ hasText: 'DKIM' });
    expect(await dkim.locator('code').first().textContent()).toMatch(/\._domainkey\.settings-e2e\.test$/);
    await dkim.getByRole('button', { name: 'Copy DKIM record value' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(
      await dkim.locator('code').nth(1).textContent(),
    );
    expect(problemsOf(problems)).toEqual([]);
    await context.close();
  });

  it('shows a member every settings form read-only, without the admin actions, and the service refuses a direct attempt', async () => {
    const { page, context, problems } = await harness.open();
    await signInAs(page, MEMBER);
    await goToSettings(page);
    const settings = page.getByRole('form', { name: /^Settings of / }).first();
    expect(await settings.getByLabel('Title').isDisabled()).toBe(true);
    expect(await settings.getByRole('checkbox').first().isDisabled()).toBe(true);
    await page.getByText('Read-only. Changing these settings needs the admin role.').waitFor();
    for (const [path, heading] of SUB_PAGES) {
      await page.goto(`${harness.app.baseUrl}/console/settings/${path}`);
      await settled(page, heading);
      expect([path, await page.locator('.read-only-note').count()]).not.toEqual([path, 0]);
      // Everything a member may read is shown: nothing the page asks for is refused.
      expect([path, await page.locator('.note-error').allTextContents()]).toEqual([path, []]);
      // No write button on any sub-page: only navigation, sign-out, copying and searching remain.
      const buttons = await page.locator('main button').allTextContents();
      expect([path, buttons.filter((b) => !['Copy', 'Search'].includes(b))]).toEqual([path, []]);
      const enabled = await page
        .locator('main form:not([role=search]) :is(input, select, textarea):enabled')
        .count();
      expect([path, enabled]).toEqual([path, 0]);
    }
    // Trying anyway, with the console's own session: the service answers 403 with its error body.
    const refused = await page.evaluate(`(async () => {
      const envs = await (await fetch('/environments', { headers: { 'x-notify-console': '1' } })).json();
      const answer = await fetch('/environments/' + envs[0].clientId + '?envId=' + envs[0].clientId, {
        method: 'PATCH',
        headers: { 'x-notify-console': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'not allowed' }),
      });
      return { status: answer.status, body: await answer.json() };
    })()`);
    expect(refused).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: expect.any(String) } },
    });
    expect(problemsOf(problems)).toEqual([]);
    await context.close();
  });

  it('manages keys when signed in with an API key, which acts as an admin but not an owner', async () => {
    const { page, context, problems } = await harness.open();
    await harness.signInWithKey(page);
    await goToSettings(page);
    await page.getByRole('cell', { name: 'ci deploys', exact: true }).waitFor();
    const newKey = page.getByRole('form', { name: 'New API key' });
    await newKey.getByLabel('Key name').fill('from the key');
    await newKey.getByRole('button', { name: 'Create key' }).click();
    await page.locator('.new-secret code').waitFor();
    await page.getByRole('cell', { name: 'from the key', exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'from the key' });
    await row.getByRole('button', { name: 'Revoke from the key' }).click();
    await row.getByRole('button', { name: 'Revoke from the key now' }).click();
    await row.getByRole('cell', { name: 'revoked', exact: true }).waitFor();
    await openSubPage(page, 'Members and roles', 'Members');
    await page.getByText('Read-only. Changing roles needs the owner role.').waitFor();
    expect(problemsOf(problems)).toEqual([]);
    await context.close();
  });

  it('passes axe-core and fits the width at 1280 and 390 pixels on every settings sub-page', async () => {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      const { page, context, problems } = await harness.open(width, height);
      await signInAs(page, ADMIN);
      for (const [path, heading] of SUB_PAGES) {
        await page.goto(`${harness.app.baseUrl}/console/settings/${path}`);
        await settled(page, heading);
        expect([width, path, await page.locator('.note-error').allTextContents()]).toEqual([width, path, []]);
        expect([width, path, await seriousViolations(page)]).toEqual([width, path, []]);
        expect([width, path, await fitsWidth(page)]).toEqual([width, path, true]);
      }
      expect(problemsOf(problems)).toEqual([]);
      await context.close();
    }
  });
});
