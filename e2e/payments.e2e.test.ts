import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { createApiClient } from '@mates/api-client';
import { startStripeDouble } from '../apps/server/test/stripe-double';
import { launchBrowser, signedInPage, startServer, type E2eServer } from './harness';
import { listenPort } from '../scripts/listen-port';

// Issue #17: buying a pack through Stripe Checkout (a local double of Stripe's API and hosted
// page), coming back, seeing the balance and the ledger, spending, and a webhook delivered twice.
const KEYS = { secretKey: 'sk_test_e2e', webhookSecret: 'whsec_e2e' };

let browser: Browser;
let server: E2eServer;
let stripe: Awaited<ReturnType<typeof startStripeDouble>>;
beforeAll(async () => {
  browser = await launchBrowser();
  stripe = await startStripeDouble(KEYS);
  server = await startServer(
    {
      STRIPE_SECRET_KEY: KEYS.secretKey,
      STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret,
      STRIPE_API_URL: stripe.url,
      WELCOME_CHATS: '3',
      WELCOME_GOLD_COINS: '0',
      LLM_MAX_TOKENS: '16',
    },
    await listenPort(),
  );
  stripe.setWebhook(`${server.url}/api/stripe/webhook`);
});
afterAll(async () => {
  await server?.stop();
  await stripe?.close();
  await browser?.close();
});

describe('buying a pack', () => {
  test('pay at the provider, come back to a confirmed payment, see it in the history, spend', async () => {
    const user = await server.signedInUser(`buyer-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const page = await signedInPage(browser, server, user, '/subscription');
    const pack = page.getByRole('article', { name: '500 gold coins' });
    await pack.getByRole('button', { name: 'See details' }).click();
    await page.getByRole('heading', { level: 1, name: '500 gold coins' }).waitFor();
    await page.getByRole('button', { name: 'Buy for $4.99' }).click();

    // Stripe's hosted page (the double's): pay, and come back.
    await page.waitForURL(`${stripe.url}/pay/**`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/#\/single-package\?packageId=coins-500&checkoutId=/);
    await page.getByRole('heading', { name: 'Payment confirmed' }).waitFor({ timeout: 15_000 });
    await page.getByText('You now have 3 chats and 500 gold coins.').waitFor();
    await page.getByRole('banner').getByText('500 gold coins').waitFor();

    // The history shows the purchase.
    await page.getByRole('link', { name: 'See your history' }).click();
    const history = page.getByRole('list', { name: 'History' });
    const newest = history.getByRole('listitem').first();
    await newest.getByText('Purchase · +500 gold coins').waitFor();

    // Stripe delivers at least once: the same event again changes nothing.
    const paid = stripe.deliveries.find(
      (delivery) => delivery.event.type === 'checkout.session.completed',
    );
    expect(paid?.status).toBe(200);
    const rows = (await client.user.ledger({ page: 1, pageSize: 50 })).total;
    expect(await stripe.deliver(paid!.event)).toBe(200);
    expect((await client.user.benefits()).goldCoins).toBe(500);
    expect((await client.user.ledger({ page: 1, pageSize: 50 })).total).toBe(rows);

    // Spend a chat, and see the spend in the history.
    const [mate] = (await client.mate.search({ keyword: 'Kai Tanaka' })).list;
    const room = await client.room.createRoom({ mateId: mate!.mateId });
    await client.girl.chatSend({ roomId: room.roomId, content: 'Hello' }, { onData: () => {} });
    await page.reload();
    await history.getByRole('listitem').first().getByText('Spent · −1 chat').waitFor();
    expect((await client.user.benefits()).chats).toBe(2);
    await page.context().close();
  });

  test('going back from the provider shows the payment as cancelled, and nothing is charged', async () => {
    const user = await server.signedInUser(`undecided-${Date.now()}@example.com`);
    const page = await signedInPage(browser, server, user, '/single-package?packageId=coins-500');
    await page.getByRole('button', { name: 'Buy for $4.99' }).click();
    await page.waitForURL(`${stripe.url}/pay/**`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Payment cancelled').waitFor({ timeout: 15_000 });
    await page.getByText('Nothing was charged. You can try again whenever you like.').waitFor();
    await page.context().close();
  });
});
