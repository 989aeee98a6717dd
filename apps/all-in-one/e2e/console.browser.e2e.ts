import type { Page } from 'playwright-core';
import { eventually } from '@notify/testing';
import { ChannelsEnum, type Pingram } from 'pingram';
import { pingramIn } from './all-in-one';
import {
  type ConsoleHarness,
  fitsWidth,
  screenshot,
  seriousViolations,
  startConsoleHarness,
  unexpected,
} from './console-browser';

/**
 * The web console in a real browser (Debian's Chromium through playwright-core) against the
 * all-in-one service as `npm start` runs it: signing in, the live tail, a send's page and the log
 * search, each page checked with axe-core at desktop and phone widths and for policy violations.
 */
describe('web console in Chromium', () => {
  let harness: ConsoleHarness;
  let client: Pingram;

  beforeAll(async () => {
    harness = await startConsoleHarness('notify-console-e2e-');
    client = pingramIn(harness.app.baseUrl, harness.key);
  }, 180_000);

  afterAll(() => harness?.stop(), 60_000);

  const freshPage = (width?: number, height?: number) => harness.open(width, height);
  const signInWithKey = (page: Page) => harness.signInWithKey(page);

  it('signs in with an API key held in memory only: nothing in storage or cookies, gone on reload', async () => {
    const { page, context, problems } = await freshPage();
    await signInWithKey(page);
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([
      0,
      0,
      '',
    ]);
    expect(await context.cookies()).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in to Notify' }).waitFor();
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  /** The token of the newest console sign-in link mailed to `email`, from the dev outbox. */
  const mailedSignInToken = (email: string) =>
    eventually(async () => {
      const outbox = await fetch(`${harness.app.baseUrl}/dev/outbox/email`, {
        headers: { authorization: `Bearer ${harness.key}` },
      });
      const { messages } = (await outbox.json()) as { messages: unknown[] };
      const token = messages
        .map((m) => JSON.stringify(m))
        .filter((m) => m.includes(email))
        .map((m) => /console\/sign-in#token=([A-Za-z0-9_-]+)/.exec(m)?.[1])
        .find((t) => t !== undefined);
      if (token === undefined) throw new Error(`no sign-in link mailed to ${email} yet`);
      return token;
    }, 20_000);

  it('signs a member in by a mailed single-use link into an HttpOnly, Secure, SameSite=Strict cookie, and out again', async () => {
    const email = 'owner@notify.localhost';
    const { page, context, problems } = await freshPage();
    await page.goto(`${harness.app.baseUrl}/console`);
    await page.getByLabel('Your email address').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'sign-in link is on its way' }).waitFor();
    const token = await mailedSignInToken(email);

    // The link's page asks before it spends the token, so a mail scanner opening it signs nobody in.
    await page.goto(`${harness.app.baseUrl}/console/sign-in#token=${token}`);
    await page.getByRole('heading', { name: 'Finish signing in' }).waitFor();
    expect(await context.cookies()).toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    expect(page.url()).toBe(`${harness.app.baseUrl}/console/logs`);
    expect(await page.locator('.who').textContent()).toContain(`${email} · owner`);
    const [cookie, ...others] = await context.cookies();
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({
      name: '__Host-notify_session',
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/',
    });
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([
      0,
      0,
      '',
    ]);

    // The session outlives a reload (unlike a key), and the link does not work twice.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    const reuse = await context.newPage();
    await reuse.goto(`${harness.app.baseUrl}/console/sign-in#token=${token}`);
    await reuse.getByRole('button', { name: 'Sign in' }).click();
    await reuse
      .getByRole('alert')
      .filter({ hasText: /already been used|used/i })
      .waitFor();
    await reuse.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to Notify' }).waitFor();
    expect(await context.cookies()).toEqual([]);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('shows a send in the live tail within seconds, and its page shows each channel and the request', async () => {
    const { page, context, problems } = await freshPage();
    await signInWithKey(page);
    const type = `console_welcome_${Date.now()}`;
    const { trackingId } = await client.send({
      type,
      to: { id: 'ann', email: 'ann@example.com' },
      email: { subject: 'Hello', html: '<p>Hi</p>' },
    });
    const row = page.locator(`tr[data-tracking-id="${trackingId}"]`);
    await row.waitFor({ timeout: 10_000 });
    await row.getByText('Email: delivered').waitFor({ timeout: 10_000 });
    await screenshot(page, 'logs', harness.shots);
    // From the keyboard: the live tail may move the row between finding it and a pointer's click.
    await row.getByRole('link').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Send' }).waitFor();
    await page.getByText(trackingId, { exact: true }).waitFor();
    await page.locator('.timeline-item[data-event="Email delivered"]').waitFor({ timeout: 10_000 });
    const steps = await page
      .locator('.timeline-item')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-event')));
    expect(steps.slice(0, 4)).toEqual([
      'Request received',
      'Routed',
      'Email sent to the provider',
      'Email delivered',
    ]);
    expect(await page.locator('.timeline-item[data-event="Routed"]').textContent()).toContain(
      'email_routingSEND',
    );
    await screenshot(page, 'timeline', harness.shots);
    expect(await page.locator('pre.code').textContent()).toContain(`"type": "${type}"`);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('shows the dev outbox as recipients would see it: an email in its sandboxed frame, an SMS as a bubble', async () => {
    const subject = `Outbox ${Date.now()}`;
    const { trackingId } = await client.send({
      type: 'console_outbox',
      to: { id: 'cat', email: 'cat@example.com', number: '+14155552671' },
      email: {
        subject,
        html: '<h2 style="color:#c00">Welcome, Cat</h2><script>parent.document.title="owned"</script>',
      },
      sms: { message: `SMS for ${subject}` },
    });
    const { page, context, problems } = await freshPage();
    await signInWithKey(page);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Dev outbox' }).click();
    const email = page.locator(`li[data-tracking-id="${trackingId}"]`);
    await email.waitFor({ timeout: 15_000 });
    const frame = page.frameLocator(`iframe[title="Email: ${subject}"]`);
    expect(await frame.locator('h2').textContent()).toBe('Welcome, Cat');
    // The frame runs none of the email's scripts and cannot reach the console.
    expect(await page.title()).toBe('Notify console');
    await screenshot(page, 'outbox', harness.shots);
    await page.getByRole('group', { name: 'Channel' }).getByRole('button', { name: 'SMS' }).click();
    await page
      .locator(`li[data-tracking-id="${trackingId}"] .bubble`)
      .getByText(`SMS for ${subject}`)
      .waitFor({ timeout: 15_000 });
    // The email's script was refused by the frame's policy: that report is the only one expected.
    expect(unexpected(problems).filter((p) => !/Content Security Policy.*script-src/.test(p))).toEqual([]);
    await context.close();
  });

  it("finds a failed SMS by status and channel from the keyboard alone, and shows the provider's code and answer", async () => {
    const { trackingId } = await client.send({
      type: `console_sms_${Date.now()}`,
      to: { id: 'bob', number: '+15005550001' },
      forceChannels: [ChannelsEnum.SMS],
      sms: { message: 'to a number Twilio refuses' },
    });
    const { page, context, problems } = await freshPage();
    await signInWithKey(page);
    const search = page.getByRole('search', { name: 'Search the log' });
    /** The focused element, and whether it shows a focus ring. */
    const focused = () =>
      page.evaluate<[string, string, boolean]>(
        `(() => { const e = document.activeElement; const s = getComputedStyle(e);
          return [e.tagName, e.getAttribute('aria-label') || e.textContent || '', s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2]; })()`,
      );
    // From the tracking-id field, Tab walks the search form in order; typing picks an option.
    await page.getByRole('textbox', { name: 'Tracking id' }).focus();
    const stops: [string, string, boolean][] = [];
    for (const [presses, typed] of [
      [3, ''], // past Open, User ids, Notification type
      [1, 'SMS'],
      [1, 'f'],
    ] as const) {
      for (let i = 0; i < presses; i++) await page.keyboard.press('Tab');
      if (typed !== '') await page.keyboard.type(typed);
      stops.push(await focused());
    }
    expect(await search.getByLabel('Channel').inputValue()).toBe('SMS');
    expect(await search.getByLabel('Status').inputValue()).toBe('FAILED');
    // Past From and To (a date-time field holds a stop per part), to Search.
    for (let i = 0; i < 20 && (await focused())[1] !== 'Search'; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focused());
    }
    expect(stops.at(-1)?.slice(0, 2)).toEqual(['BUTTON', 'Search']);
    expect(stops.filter(([, , ring]) => !ring)).toEqual([]);
    expect(stops.slice(0, 3).map(([tag]) => tag)).toEqual(['INPUT', 'SELECT', 'SELECT']);
    const row = page.locator(`tr[data-tracking-id="${trackingId}"]`);
    // The failure is logged a moment after the send: Enter searches again until it is there.
    for (let attempt = 0; attempt < 20 && !(await row.isVisible()); attempt++) {
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Search results' }).waitFor();
      await page.waitForTimeout(500);
    }
    expect(await row.locator('.badge-failed').textContent()).toBe('SMS: failed (21211)');
    await row.getByRole('link').focus();
    await page.keyboard.press('Enter');
    const answer = page.locator('.provider-answer');
    await answer.waitFor();
    expect(await answer.textContent()).toContain(
      "(21211): The 'To' number +15005550001 is not a valid phone number.",
    );
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('shows sent, delivered and failed per channel and the failure rate from the insights API', async () => {
    const { page, context, problems } = await freshPage();
    await signInWithKey(page);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Insights' }).click();
    await page.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
    // The sends of the tests above: an email delivered, an SMS the provider refused.
    const cell = async (channel: string, column: number) =>
      Number(
        await page.locator(`tr[data-channel="${channel}"] td`).nth(column).textContent({ timeout: 1_000 }),
      );
    await eventually(async () => {
      await page.getByLabel('Time range').selectOption({ label: 'Last hour' });
      await page.getByLabel('Time range').selectOption({ label: 'Last 24 hours' });
      expect(await cell('EMAIL', 2)).toBeGreaterThanOrEqual(1);
      expect(await cell('SMS', 3)).toBeGreaterThanOrEqual(1);
    }, 20_000);
    expect(await page.locator('.chart canvas').count()).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'insights', harness.shots);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('passes axe-core and fits the width on every page at 1280 and 390 pixels, with the menu reachable on a phone', async () => {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      const { page, context, problems } = await freshPage(width, height);
      await page.goto(`${harness.app.baseUrl}/console`);
      await page.getByRole('heading', { level: 1, name: 'Sign in to Notify' }).waitFor();
      expect([width, 'sign-in', await seriousViolations(page)]).toEqual([width, 'sign-in', []]);
      expect([width, 'sign-in', await fitsWidth(page)]).toEqual([width, 'sign-in', true]);
      await signInWithKey(page);
      const nav = page.getByRole('navigation', { name: 'Console' });
      const menu = page.getByRole('button', { name: 'Menu' });
      // Read from the DOM: on a phone the links are hidden until the menu opens.
      const labels = await page.locator('#nav a').allTextContents();
      expect(labels.length).toBeGreaterThanOrEqual(2);
      for (const label of labels) {
        // On a phone the navigation is behind the menu button, and closes when a page is chosen.
        if (width < 800) await menu.click();
        await nav.getByRole('link', { name: label }).click();
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        expect([width, label, await seriousViolations(page)]).toEqual([width, label, []]);
        expect([width, label, await fitsWidth(page)]).toEqual([width, label, true]);
      }
      expect(unexpected(problems)).toEqual([]);
      await context.close();
    }
  });
});
