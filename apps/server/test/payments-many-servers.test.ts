import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '@mates/api-client';
import { loadConfig } from '../src/config';
import { startServer, type RunningServer } from '../src/server';
import { silentLogger } from '../src/logging/logger';
import { createSession } from '../src/accounts/sessions';
import { emptyDatabase, insertUser, postgresAvailable } from './harness';
import { startStripeDouble, type StripeDouble } from './stripe-double';

// Issue #36, item 2: several differently-id'd signed events for one paid checkout
// (`checkout.session.completed` and `…async_payment_succeeded`), delivered at the same moment
// to two servers on one PostgreSQL, granted the package once per event: only the event's id
// guarded, and each server read the checkout as still open. SQLite serialised them and held.
const withPostgres = await postgresAvailable();
const KEYS = { secretKey: 'sk_test_mates', webhookSecret: 'whsec_mates' };

describe.skipIf(!withPostgres)('Stripe events for one payment on two servers', () => {
  let stripe: StripeDouble;
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  const dataDirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'mates-pay-')));
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    stripe = await startStripeDouble(KEYS);
    database = await emptyDatabase('postgres');
    // One after the other: the first migrates and seeds, the second finds it done.
    for (const dataDir of dataDirs)
      servers.push(
        await startServer(
          loadConfig({
            DATA_DIR: dataDir,
            PORT: '0',
            DATABASE_URL: database.url,
            PUBLIC_URL: 'http://mates.test',
            LLM_PROVIDER: 'openai',
            LLM_BASE_URL: 'http://127.0.0.1:9/v1',
            LLM_API_KEY: 'sk-test',
            LLM_MODEL: 'mate-model',
            SPEECH_PROVIDER: 'none',
            STRIPE_SECRET_KEY: KEYS.secretKey,
            STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret,
            STRIPE_API_URL: stripe.url,
          }),
          silentLogger(),
        ),
      );
    stripe.setWebhook(`${servers[0]!.url}/api/stripe/webhook`);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await database?.drop();
    await stripe?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A new buyer with no chats or coins, signed in on the first server. */
  const buyer = async (): Promise<ApiClient> => {
    const id = `buyer-${randomBytes(4).toString('hex')}`;
    await insertUser(database.db, { id, email: `${id}@example.com` });
    const token = await createSession(database.db, id);
    return createApiClient({
      baseUrl: `${servers[0]!.url}/api`,
      getToken: () => token,
      getLanguage: () => 'en',
    });
  };
  const webhookOf = (index: number) => `${servers[index % 2]!.url}/api/stripe/webhook`;
  /** Delivers every event at the same moment, alternately to each server; their statuses. */
  const deliverTogether = (events: ReturnType<StripeDouble['event']>[]) =>
    Promise.all(
      events.map((event, index) => stripe.deliver(event, KEYS.webhookSecret, webhookOf(index))),
    );
  /** The same event under `copies` ids of its own, as Stripe sends distinct events. */
  const copies = (event: ReturnType<StripeDouble['event']>, copies: number, type = event.type) =>
    Array.from({ length: copies }, () => stripe.event(type, structuredClone(event.data.object)));
  const purchases = async (client: ApiClient, kind: string) =>
    (await client.user.ledger({ page: 1, pageSize: 50 })).list.filter((row) => row.kind === kind);
  const sessionOf = (url: string) => stripe.sessions.get(url.split('/').pop()!)!;

  it('grants a pack once for six distinct events of its paid checkout, and a refund takes back that once', async () => {
    for (let round = 0; round < 3; round++) {
      const client = await buyer();
      const { url, checkoutId } = await client.subscription.checkout({ packageId: 'coins-500' });
      const completed = stripe.complete(sessionOf(url).id);
      const statuses = await deliverTogether([
        ...copies(completed, 3),
        ...copies(completed, 3, 'checkout.session.async_payment_succeeded'),
      ]);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      expect((await client.subscription.checkoutStatus({ checkoutId })).state).toBe('paid');
      expect((await client.user.benefits()).goldCoins).toBe(500);
      expect(await purchases(client, 'purchase')).toHaveLength(1);

      // Refunded in full: exactly what was granted goes, once.
      expect(await stripe.deliver(stripe.refunded(sessionOf(url).id, 499))).toBe(200);
      expect((await client.user.benefits()).goldCoins).toBe(0);
      const takenBack = await purchases(client, 'adjustment');
      expect(takenBack.map((row) => row.goldCoins)).toEqual([-500]);
      expect(takenBack[0]!.reason).toBe('payment refunded: 500 gold coins');
    }
  });

  it("grants a plan's first month and each renewal once for distinct events delivered together", async () => {
    const client = await buyer();
    const { url } = await client.subscription.checkout({ packageId: 'plus' });
    const completed = stripe.complete(sessionOf(url).id);
    expect(
      await deliverTogether([
        ...copies(completed, 2),
        ...copies(completed, 2, 'checkout.session.async_payment_succeeded'),
      ]),
    ).toEqual([200, 200, 200, 200]);
    expect(await client.user.benefits()).toMatchObject({ chats: 3000, goldCoins: 200 });
    expect(await purchases(client, 'purchase')).toHaveLength(1);

    const renewal = stripe.renew(sessionOf(url).subscription as string);
    expect(await deliverTogether(copies(renewal, 4))).toEqual([200, 200, 200, 200]);
    expect(await client.user.benefits()).toMatchObject({ chats: 6000, goldCoins: 400 });
    expect(await purchases(client, 'renewal')).toHaveLength(1);

    // The renewal refunded: that month's grant goes, once.
    const refund = stripe.refundedPayment(stripe.paymentOfInvoice(renewal.data.object.id));
    expect(await deliverTogether(copies(refund, 2))).toEqual([200, 200]);
    expect(await client.user.benefits()).toMatchObject({ chats: 3000, goldCoins: 200 });
    expect(await purchases(client, 'adjustment')).toHaveLength(1);
  });

  it("keeps a plan's newest state when an older event about it arrives at the same moment", async () => {
    const client = await buyer();
    const { url } = await client.subscription.checkout({ packageId: 'plus' });
    expect(await stripe.pay(sessionOf(url).id)).toBe(200);
    const subscriptionId = sessionOf(url).subscription as string;
    for (let round = 0; round < 10; round++) {
      const cancelling = round % 2 === 0;
      const newer = stripe.subscriptionEvent('customer.subscription.updated', subscriptionId, {
        cancel_at_period_end: cancelling,
      });
      const older = stripe.subscriptionEvent('customer.subscription.updated', subscriptionId, {
        cancel_at_period_end: !cancelling,
      });
      newer.created += round * 100 + 100;
      older.created = newer.created - 50;
      expect(await deliverTogether([newer, older])).toEqual([200, 200]);
      expect((await client.subscription.info()).current!.cancelAtPeriodEnd).toBe(cancelling);
    }
  });
});
