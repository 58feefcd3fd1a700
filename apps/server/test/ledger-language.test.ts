import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ApiClient, JobStatus } from '@mates/api-client';
import type { LanguageModel } from '../src/llm/language-model';
import { grantBenefits, spendGoldCoins } from '../src/accounts/benefits';
import { ledgerPage } from '../src/accounts/ledger-service';
import { migrateTo, migrateToLatest } from '../src/db/migrate';
import {
  DIALECTS,
  emptyDatabase,
  insertUser,
  postgresAvailable,
  seededMate,
  signUp,
  startTestServer,
  unconfiguredModel,
  until,
} from './harness';
import { startAutomatic1111Double } from './image-doubles';
import { startStripeDouble, type StripeDouble } from './stripe-double';

// The ledger said what each line was for in English whatever the reader's language ("chat",
// "refund: picture failed", "payment refunded: Plus plan (52 gold coins already spent)"): each
// row the server writes keeps its sentence's key and values, and the ledger says it in the
// caller's language; an operator's own words, and rows older than the keys whose sentence had
// values, are shown as written.
const withPostgres = await postgresAvailable();
const KEYS = { secretKey: 'sk_test_mates', webhookSecret: 'whsec_mates' };
const COST = 7;

/** A model that answers "Hello.". */
const helloModel = (): LanguageModel => ({
  ...unconfiguredModel(),
  unavailableReason: () => null,
  async generate(_turns, _options, onText) {
    onText('Hello.');
    return { finishReason: 'stop', promptTokens: 1, completionTokens: 1 };
  },
});

describe.each(DIALECTS)('the ledger in the reader’s language on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let stripe: StripeDouble;
  let images: Awaited<ReturnType<typeof startAutomatic1111Double>>;
  beforeAll(async () => {
    if (skip) return;
    stripe = await startStripeDouble(KEYS);
    images = await startAutomatic1111Double();
    server = await startTestServer(dialect, {
      model: helloModel(),
      env: {
        STRIPE_SECRET_KEY: KEYS.secretKey,
        STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret,
        STRIPE_API_URL: stripe.url,
        IMAGE_PROVIDER: 'automatic1111',
        IMAGE_BASE_URL: images.url,
        IMAGE_COST: String(COST),
        WELCOME_CHATS: '5',
        WELCOME_GOLD_COINS: '20',
      },
    });
    stripe.setWebhook(`${server.base}/api/stripe/webhook`);
    await server.deps.jobs.start();
  });
  afterAll(async () => {
    if (skip) return;
    await server.close();
    await stripe.close();
    await images.close();
  });

  const sessionOf = (url: string) => stripe.sessions.get(url.split('/').pop()!)!;
  const reasons = async (token: string, language: string) =>
    (await server.client({ token, language }).user.ledger({ page: 1, pageSize: 50 })).list
      .map((entry) => entry.reason)
      .reverse();
  const buy = async (client: ApiClient, packageId: string) => {
    const { url } = await client.subscription.checkout({ packageId });
    expect(await stripe.pay(sessionOf(url).id)).toBe(200);
    return sessionOf(url);
  };

  it.skipIf(skip)(
    'says each of the server’s reasons in Spanish and French, the same words in English',
    async () => {
      const { client, userInfo } = await signUp(server);
      const token = userInfo.token!;
      // A chat spent on a reply.
      const mate = await seededMate(server.db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: mate.id });
      await client.girl.chatSend({ roomId, content: 'Hi' }, { onData: () => {} });
      // A picture the engine fails: its coins come back.
      images.queue.push({ kind: 'status', status: 500, body: { error: 'OutOfMemoryError' } });
      const picture = await client.room.createImage({ roomId, prompt: 'Kai in the rain' });
      await until(
        () => client.room.checkJobStatus({ jobId: picture.jobId }),
        (status: JobStatus) => status.state === 'failed',
      );
      // Coins bought, 300 of the 520 spent, then the payment half refunded: 30 of its 250 gone.
      const pack = await buy(client, 'coins-500');
      expect(
        await server.db.transaction().execute((trx) =>
          spendGoldCoins(trx, userInfo.uuid!, 300, {
            reason: { key: 'ledger.reasons.picture' },
            reference: null,
          }),
        ),
      ).toBe('spent');
      expect(await stripe.deliver(stripe.refunded(pack.id, 250))).toBe(200);
      // The monthly plan bought, renewed, and its renewal charged back.
      const plan = await buy(client, 'plus');
      const renewal = stripe.renew(plan.subscription as string);
      expect(await stripe.deliver(renewal)).toBe(200);
      const charged = stripe.paymentOfInvoice(renewal.data.object.id);
      expect(await stripe.deliver(stripe.disputeClosed(charged, 'lost'))).toBe(200);

      expect(await reasons(token, 'en')).toEqual([
        'welcome',
        'chat',
        'picture',
        'refund: picture failed',
        '500 gold coins',
        'picture',
        'payment refunded: 500 gold coins (30 gold coins already spent)',
        'Plus plan, first month',
        'Plus plan renewed',
        'chargeback lost: Plus plan',
      ]);
      // What is stored stays English, for exports, the operators' commands and logs.
      const stored = await server.db
        .selectFrom('benefit_ledger')
        .select('reason')
        .where('user_id', '=', userInfo.uuid!)
        .orderBy('id')
        .execute();
      expect(stored.map((row) => row.reason)).toEqual(await reasons(token, 'en'));
      expect(await reasons(token, 'es-MX')).toEqual([
        'regalo de bienvenida',
        'respuesta',
        'imagen',
        'devolución: la imagen falló',
        '500 gold coins',
        'imagen',
        'pago reembolsado: 500 gold coins (ya habías gastado 30 monedas de oro)',
        'plan Plus, primer mes',
        'plan Plus renovado',
        'contracargo: plan Plus',
      ]);
      expect(await reasons(token, 'fr')).toEqual([
        'cadeau de bienvenue',
        'réponse',
        'image',
        'remboursement : l’image a échoué',
        '500 gold coins',
        'image',
        'paiement remboursé : 500 gold coins (tu avais déjà dépensé 30 pièces d’or)',
        'formule Plus, premier mois',
        'formule Plus renouvelée',
        'rétrofacturation : formule Plus',
      ]);
    },
  );

  it.skipIf(skip)('says what was already spent with its plural, in each language', async () => {
    const { client, userInfo } = await signUp(server);
    const pack = await buy(client, 'coins-500');
    // 5 chats of the welcome and all but one coin spent: 1 gold coin left to take back.
    await server.db.transaction().execute(async (trx) => {
      await spendGoldCoins(trx, userInfo.uuid!, 519, {
        reason: { key: 'ledger.reasons.picture' },
        reference: null,
      });
    });
    expect(await stripe.deliver(stripe.refunded(pack.id, 499))).toBe(200);
    const last = async (language: string) => (await reasons(userInfo.token!, language)).at(-1);
    expect(await last('en')).toBe(
      'payment refunded: 500 gold coins (499 gold coins already spent)',
    );
    expect(await last('es')).toBe(
      'pago reembolsado: 500 gold coins (ya habías gastado 499 monedas de oro)',
    );
    expect(await last('fr')).toBe(
      'paiement remboursé : 500 gold coins (tu avais déjà dépensé 499 pièces d’or)',
    );
  });

  it.skipIf(skip)('shows an operator’s reason as the operator wrote it', async () => {
    const { userInfo } = await signUp(server);
    await grantBenefits(
      server.db,
      userInfo.uuid!,
      { chats: 10, goldCoins: 0 },
      { kind: 'adjustment', reason: { text: 'sorry for Tuesday’s outage' }, reference: null },
    );
    for (const language of ['en', 'es', 'fr'])
      expect((await reasons(userInfo.token!, language)).at(-1)).toBe('sorry for Tuesday’s outage');
  });
});

describe.each(DIALECTS)('the ledger’s reason keys migration on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'translates rows written before it whose reason was a fixed sentence, and keeps the others',
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-29-0040-message-index-later');
        await insertUser(db, { id: 'ada', email: 'ada@example.com' });
        const at = '2026-11-29T10:00:00.000Z';
        const rows: [string, number, number, string][] = [
          ['grant', 50, 20, 'welcome'],
          ['spend', -1, 0, 'chat'],
          ['spend', 0, -5, 'picture'],
          ['refund', 0, 5, 'refund: picture failed'],
          ['spend', -1, 0, 'inspiration'],
          ['refund', 1, 0, 'inspiration: refunded, nothing usable'],
          ['refund', 1, 0, 'refund: stopped'],
          ['renewal', 3000, 200, 'Plus plan renewed'],
          ['adjustment', 0, -20, 'payment refunded: Plus plan (52 gold coins already spent)'],
          ['adjustment', 5, 0, 'gift from the operator'],
          ['adjustment', 5, 0, 'because'],
        ];
        for (const [kind, chats, coins, reason] of rows)
          await sql`insert into benefit_ledger (user_id, chats_delta, gold_coins_delta, kind,
              reason, chats_after, gold_coins_after, created_at)
            values ('ada', ${chats}, ${coins}, ${kind}, ${reason}, 0, 0, ${at})`.execute(db);
        await migrateToLatest(db as never, dialect);
        const said = async (language: string) =>
          (await ledgerPage({ db }, 'ada', { pageSize: 50 }, language)).list
            .map((entry) => entry.reason)
            .reverse();
        expect(await said('en')).toEqual(rows.map((row) => row[3]));
        expect(await said('es')).toEqual([
          'regalo de bienvenida',
          'respuesta',
          'imagen',
          'devolución: la imagen falló',
          'ideas',
          'ideas: devuelto, no salió nada útil',
          'devolución: respuesta detenida',
          'Plus plan renewed',
          'payment refunded: Plus plan (52 gold coins already spent)',
          'regalo de quien administra el servidor',
          'because',
        ]);
        expect((await said('fr')).slice(0, 4)).toEqual([
          'cadeau de bienvenue',
          'réponse',
          'image',
          'remboursement : l’image a échoué',
        ]);
      } finally {
        await database.drop();
      }
    },
  );
});
