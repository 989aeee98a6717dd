import { aMemberToken, eventually } from '@notify/testing';
import type { Page } from 'playwright-core';
import { callAs } from './all-in-one';
import {
  type ConsoleHarness,
  fitsWidth,
  screenshot,
  seriousViolations,
  startConsoleHarness,
  unexpected,
} from './console-browser';

const MEMBER = 'mia@templates.example';

/**
 * Notification types and their templates in the console, in Chromium against the all-in-one: the
 * type settings, the template editor (CodeMirror) and its live preview, which changes as one types
 * and before anything is saved.
 */
describe('console notification types and templates in Chromium', () => {
  let harness: ConsoleHarness;

  beforeAll(async () => {
    harness = await startConsoleHarness('notify-console-templates-e2e-', {
      tenants: [{ accountId: 'default', create: false, members: [{ email: MEMBER, role: 'member' }] }],
    });
  }, 180_000);

  afterAll(() => harness?.stop(), 60_000);

  const call = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    const response = await callAs(harness.app.baseUrl, path, harness.key, init);
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  /** A type with one channel and its template `main`, made through the API. */
  const aTypeWithTemplate = async (channel: string, content: Record<string, unknown>): Promise<string> => {
    const notificationId = `console_tpl_${channel.toLowerCase()}_${Date.now()}`;
    await call('/types', {
      method: 'POST',
      body: JSON.stringify({ notificationId, title: `Console ${channel}`, channels: [channel] }),
    });
    await call(`/notifications/${notificationId}/${channel}/templates`, {
      method: 'POST',
      body: JSON.stringify({ templateId: 'main', ...content }),
    });
    return notificationId;
  };
  const storedTemplate = (notificationId: string, channel: string) =>
    call(`/notifications/${notificationId}/${channel}/templates/main`) as Promise<Record<string, unknown>>;
  const openEditor = async (page: Page, notificationId: string, channel: string) => {
    await navigate(page, `/console/types/${notificationId}/templates/${channel}/main`);
    await page.getByRole('heading', { level: 1, name: 'Template main' }).waitFor();
  };

  it('previews an SMS as it is typed, a unicode character turning it UCS-2 with more segments, and saves only on Save', async () => {
    const notificationId = await aTypeWithTemplate('SMS', { text: 'Hello {{name}}' });
    const { page, context, problems } = await harness.open();
    await harness.signInWithKey(page);
    await openEditor(page, notificationId, 'SMS');
    const facts = page.getByTestId('sms-facts');
    await expectText(facts, 'GSM-7 · 1 segment · 12 characters');

    const typed = ' ✓ your order is on its way and will be with you tomorrow before noon.';
    const editor = page.getByRole('textbox', { name: 'Text', exact: true });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(typed);
    await expectText(facts, `UCS-2 · 2 segments · ${12 + typed.length} characters`);
    await page.locator('.bubble').getByText(`Hello [name]${typed}`).waitFor();
    await page.getByRole('status').getByText('Unsaved changes').waitFor();
    expect((await storedTemplate(notificationId, 'SMS'))['text']).toBe('Hello {{name}}');
    await screenshot(page, 'templates', harness.shots);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved', { exact: true }).waitFor();
    expect((await storedTemplate(notificationId, 'SMS'))['text']).toBe(`Hello {{name}}${typed}`);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('renders email HTML in the sandboxed frame as it is edited, at desktop and phone widths, and completes merge tags from recent sends', async () => {
    const html =
      '<!doctype html><html lang="en"><head><title>Order</title></head><body><p>Hello {{name}}</p></body></html>';
    const notificationId = await aTypeWithTemplate('EMAIL', { subject: 'Your order', html });
    // A recent send of the type: its parameters are what `{{` completes.
    const { trackingId } = (await call('/send', {
      method: 'POST',
      body: JSON.stringify({
        type: notificationId,
        to: { id: 'ann', email: 'ann@example.com' },
        parameters: { name: 'Ann', order: { id: 7 } },
      }),
    })) as { trackingId: string };
    await eventually(() => call(`/logs/${trackingId}`));
    const { page, context, problems } = await harness.open();
    await harness.signInWithKey(page);
    await openEditor(page, notificationId, 'EMAIL');
    const frame = page.frameLocator('iframe[title="Email preview"]');
    await frame.getByText('Hello [name]').waitFor();
    const editor = page.getByRole('textbox', { name: 'HTML' });
    const frameWidth = async () =>
      (await page.locator('iframe[title="Email preview"]').boundingBox())?.width ?? 0;

    await replaceInEditor(page, editor, 'Hello', 'Shipped,');
    await frame.getByText('Shipped, [name]').waitFor();
    expect(await frameWidth()).toBeGreaterThan(580);
    expect(await frameWidth()).toBeLessThanOrEqual(600);

    await page.getByRole('button', { name: 'Phone (390 px)' }).click();
    await replaceInEditor(page, editor, 'Shipped,', 'Arriving today,');
    await frame.getByText('Arriving today, [name]').waitFor();
    expect(await frameWidth()).toBeGreaterThan(370);
    expect(await frameWidth()).toBeLessThanOrEqual(390);
    expect((await storedTemplate(notificationId, 'EMAIL'))['html']).toBe(html);
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('{{ord');
    await page.locator('.cm-tooltip-autocomplete').getByText('order.id').waitFor();
    // The frame runs in an opaque origin: the console's page is out of its reach.
    expect(await page.locator('iframe[title="Email preview"]').getAttribute('sandbox')).toBe('allow-scripts');
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('creates a type in the console and saves its channels and quiet hours', async () => {
    const notificationId = `console_created_${Date.now()}`;
    const { page, context, problems } = await harness.open();
    await harness.signInWithKey(page);
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Notification types' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Notification types' }).waitFor();
    await page.getByLabel('New type id').fill(notificationId);
    await page.getByRole('button', { name: 'Create type' }).click();
    await page.getByRole('heading', { level: 1, name: `Type ${notificationId}` }).waitFor();
    await page.getByRole('checkbox', { name: 'SMS', exact: true }).check();
    await page.getByLabel('SMS default delivery').selectOption('daily');
    await page.getByRole('checkbox', { name: 'Hold sends during quiet hours' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    // The saved type is read again: its channel's templates are linked then.
    await page.getByRole('link', { name: 'SMS templates' }).waitFor();
    const [stored] = (await call(`/types/${notificationId}`)) as Record<string, unknown>[];
    expect(stored).toMatchObject({
      channels: ['SMS'],
      options: { SMS: { defaultDeliveryOption: 'daily' } },
      quietHours: { start: '22:00', end: '07:00' },
    });
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('shows a member the settings and templates read-only, with the preview still working', async () => {
    const notificationId = await aTypeWithTemplate('SMS', { text: 'Hi {{name}}' });
    const { page, context, problems } = await harness.open();
    await harness.signInWithJwt(page, aMemberToken({ email: MEMBER, sub: 'mia' }));
    await page.goto(`${harness.app.baseUrl}/console/types/${notificationId}`);
    await page.getByText('changing them needs the admin role').first().waitFor();
    expect(await page.getByLabel('Title').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete type…' }).count()).toBe(0);
    await openEditor(page, notificationId, 'SMS');
    await expectText(page.getByTestId('sms-facts'), 'GSM-7 · 1 segment · 9 characters');
    expect(
      await page.getByRole('textbox', { name: 'Text', exact: true }).getAttribute('contenteditable'),
    ).toBe('false');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it('passes axe-core and fits the width at 1280 and 390 pixels on the list, a type and the editors', async () => {
    const sms = await aTypeWithTemplate('SMS', { text: 'Hello {{name}}' });
    const email = await aTypeWithTemplate('EMAIL', {
      subject: 'Hi',
      html: '<!doctype html><html lang="en"><head><title>Hi</title></head><body><p>Hi {{name}}</p></body></html>',
    });
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      const { page, context, problems } = await harness.open(width, height);
      await harness.signInWithKey(page);
      const check = async (name: string) => {
        expect([width, name, await seriousViolations(page)]).toEqual([width, name, []]);
        expect([width, name, await fitsWidth(page)]).toEqual([width, name, true]);
      };
      await navigate(page, '/console/types');
      await page.getByRole('link', { name: sms }).waitFor();
      await check('types');
      await page.getByRole('link', { name: sms }).click();
      await page.getByRole('heading', { level: 1, name: `Type ${sms}` }).waitFor();
      await check('type');
      await page.getByRole('link', { name: 'SMS templates' }).click();
      await page.getByRole('link', { name: 'main', exact: true }).click();
      await page.getByTestId('sms-facts').waitFor();
      await check('sms editor');
      await openEditor(page, email, 'EMAIL');
      await page.frameLocator('iframe[title="Email preview"]').getByText('Hi [name]').waitFor();
      await check('email editor');
      expect(unexpected(problems)).toEqual([]);
      await context.close();
    }
  });
});

/**
 * Opens a console path inside the page, as a link would: a key's session lives in the page's memory
 * only, so loading the address anew would sign it out.
 */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate(
    `window.history.pushState(null, '', ${JSON.stringify(path)}); window.dispatchEvent(new PopStateEvent('popstate'));`,
  );
}

/** Waits until the element's text is exactly `expected` (the preview follows the typing after a pause). */
async function expectText(locator: ReturnType<Page['locator']>, expected: string): Promise<void> {
  await locator.filter({ hasText: expected }).waitFor({ timeout: 10_000 });
  expect(await locator.textContent()).toBe(expected);
}

/** Selects `from` in a CodeMirror editor by searching its text, and types `to` over it. */
async function replaceInEditor(page: Page, editor: ReturnType<Page['locator']>, from: string, to: string) {
  await editor.click();
  const text = (await editor.textContent()) ?? '';
  const start = text.indexOf(from);
  if (start < 0) throw new Error(`"${from}" is not in the editor`);
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < start; i++) await page.keyboard.press('ArrowRight');
  for (let i = 0; i < from.length; i++) await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.type(to);
}
