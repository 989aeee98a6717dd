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
 * The console's Webhooks page in Chromium: an endpoint made in the console receives an event, its
 * delivery shows the receiver's status and body, and Redeliver sends it again under the same
 * webhook-id.
 */
describe('console webhooks in Chromium', () => {
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
});
