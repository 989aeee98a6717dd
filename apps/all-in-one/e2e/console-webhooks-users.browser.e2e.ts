import { eventually, WebhookReceiver } from '@notify/testing';
import type { Pingram } from 'pingram';
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
 * The console's Webhooks and Users pages in Chromium: an endpoint made in the console receives an
 * event, its delivery shows the receiver's status and body, and Redeliver sends it again under the
 * same webhook-id; a user's contacts, recent sends and preferences, changed on their behalf.
 */
describe('console webhooks and users in Chromium', () => {
  let harness: ConsoleHarness;
  let client: Pingram;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    // The receiver listens on 127.0.0.1, which the egress guard refuses unless told otherwise.
    harness = await startConsoleHarness('notify-console-webhooks-', {
      env: { EGRESS_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    client = pingramIn(harness.app.baseUrl, harness.key);
    await receiver.start();
    receiver.reply = 'thanks';
  }, 180_000);

  afterAll(async () => {
    await receiver.stop();
    await harness?.stop();
  }, 60_000);

  const receivedFor = (trackingId: string) =>
    receiver.received.filter((r) => r.body.includes(`"trackingId":"${trackingId}"`));

  it("adds an endpoint, shows its delivery with the receiver's answer, and redelivers it under the same webhook-id", async () => {
    const { page, close, problems } = await harness.open();
    await harness.signInWithKey(page);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'SMS_FAILED' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);

    const { trackingId } = await client.sms.send({
      type: 'console_hooks',
      to: '+15005550001',
      message: 'refused',
    });
    await eventually(() => expect(receivedFor(trackingId)).toHaveLength(1), 20_000);

    await page.getByRole('link', { name: 'Open the endpoint' }).click();
    const delivery = page.locator('article.delivery').filter({ hasText: trackingId });
    await delivery.waitFor({ timeout: 15_000 });
    await delivery.locator('.badge-delivered').waitFor({ timeout: 15_000 });
    expect(await delivery.locator('.attempts tbody tr td').nth(2).textContent()).toBe('200');
    expect(await delivery.locator('.response-body').first().textContent()).toBe('thanks');
    const msgId = await delivery.getAttribute('data-msg-id');
    expect(msgId).toBe(receivedFor(trackingId)[0]?.headers['webhook-id']);
    await screenshot(page, 'webhooks', harness.shots);

    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    await eventually(() => expect(receivedFor(trackingId)).toHaveLength(2), 20_000);
    expect(receivedFor(trackingId).map((r) => r.headers['webhook-id'])).toEqual([msgId, msgId]);
    await eventually(
      async () => expect(await delivery.locator('.attempts tbody tr').count()).toBe(2),
      15_000,
    );
    expect(unexpected(problems)).toEqual([]);
    await close();
  });

  it('passes axe-core and fits the width at 1280 and 390 pixels on the list and an endpoint', async () => {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      const { page, close, problems } = await harness.open(width, height);
      await harness.signInWithKey(page);
      if (width < 800) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.locator('tr[data-endpoint-id] a').first().waitFor();
      expect([width, 'list', await seriousViolations(page)]).toEqual([width, 'list', []]);
      expect([width, 'list', await fitsWidth(page)]).toEqual([width, 'list', true]);
      await page.locator('tr[data-endpoint-id] a').first().click();
      await page.locator('article.delivery').first().waitFor();
      expect([width, 'endpoint', await seriousViolations(page)]).toEqual([width, 'endpoint', []]);
      expect([width, 'endpoint', await fitsWidth(page)]).toEqual([width, 'endpoint', true]);
      expect(unexpected(problems)).toEqual([]);
      await close();
    }
  });

  it("shows a user's contacts and recent sends, and changes a preference on their behalf", async () => {
    const userId = `console-user-${Date.now()}`;
    const type = `console_users_${Date.now()}`;
    const { trackingId } = await client.send({
      type,
      to: { id: userId, email: 'dana@example.com' },
      email: { subject: 'Hi Dana', html: '<p>Hi</p>' },
    });
    const { page, close, problems } = await harness.open();
    await harness.signInWithKey(page);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('textbox', { name: 'User id' }).fill(userId);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { level: 1, name: 'User' }).waitFor();
    await page.locator('.facts dd').filter({ hasText: 'dana@example.com' }).waitFor();
    await page.locator(`tr[data-tracking-id="${trackingId}"]`).waitFor({ timeout: 15_000 });

    await page.getByLabel(`${type}, EMAIL`).selectOption('off');
    await page.getByRole('button', { name: 'Save 1 change' }).click();
    await page.getByRole('status').filter({ hasText: "Saved on the user's behalf." }).waitFor();
    const stored = (await (
      await fetch(`${harness.app.baseUrl}/users/${userId}/preferences`, {
        headers: { authorization: `Bearer ${harness.key}` },
      })
    ).json()) as { preferences: { notificationId: string; channel: string; delivery: string }[] };
    expect(stored.preferences).toContainEqual(
      expect.objectContaining({ notificationId: type, channel: 'EMAIL', delivery: 'off' }),
    );
    await screenshot(page, 'users', harness.shots);

    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      expect([width, 'user', await seriousViolations(page)]).toEqual([width, 'user', []]);
      expect([width, 'user', await fitsWidth(page)]).toEqual([width, 'user', true]);
    }
    await page.getByRole('link', { name: '← All users' }).click();
    await page.locator(`tr[data-user-id="${userId}"]`).waitFor();
    expect([390, 'users', await seriousViolations(page)]).toEqual([390, 'users', []]);
    expect([390, 'users', await fitsWidth(page)]).toEqual([390, 'users', true]);
    expect(unexpected(problems)).toEqual([]);
    await close();
  });
});
