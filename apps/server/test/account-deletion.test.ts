import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { ApiError, SessionExpiredError, type ApiClient } from '@mates/api-client';
import type { Database } from '../src/db/schema';
import { en } from '../src/i18n/en';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { silentLogger } from '../src/logging/logger';
import { createSession } from '../src/accounts/sessions';
import { mediaOf } from '../src/media/media-of';
import { markClosing } from '../src/privacy/account-deletion-repository';
import {
  DIALECTS,
  freshDatabase,
  insertUser,
  postgresAvailable,
  seededMate,
  signUp,
  startTestServer,
} from './harness';
import { startStripeDouble, type StripeDouble } from './stripe-double';
import { startS3Double } from './s3-double';
import { fullAccount, mateDraft } from './your-data-helpers';
import { appendMessage } from '../src/chat/message-repository';
import { indexAllPendingMessages } from '../src/chat/message-search-repository';
import { indexNotes, indexPagesHolding } from './message-index-helpers';

// Issue 41: "Delete my account" deletes every row and file of the person, cancels their plan
// at Stripe, keeps the ledger without them, and a deletion a kill interrupted completes at the
// next start. Run on SQLite and PostgreSQL with the folder store, and on the bucket.
const withPostgres = await postgresAvailable();
const KEYS = { secretKey: 'sk_test_mates', webhookSecret: 'whsec_mates' };

/** The answer of a call that must fail, as the client raises it. */
async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** Every table of the database, with every row, as text: what a person could be found in. */
async function everyRow(db: Kysely<Database>, dialect: 'sqlite' | 'postgres') {
  const tables =
    dialect === 'sqlite'
      ? (
          await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'
            AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts%'
            AND name NOT LIKE 'mates_fts%'`.execute(db)
        ).rows.map((row) => row.name)
      : (
          await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(db)
        ).rows.map((row) => row.name);
  const rows = new Map<string, string[]>();
  for (const table of tables) {
    const all = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db);
    rows.set(
      table,
      all.rows.map((row) => JSON.stringify(row)),
    );
  }
  return rows;
}

/** The tables in which any of `needles` is found, with the rows. */
async function rowsNaming(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  needles: string[],
): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const [table, rows] of await everyRow(db, dialect)) {
    const hits = rows.filter((row) => needles.some((needle) => row.includes(needle)));
    if (hits.length) found[table] = hits;
  }
  return found;
}

const STORES = [
  { dialect: 'sqlite', store: 'folder' },
  { dialect: 'postgres', store: 'folder' },
  { dialect: 'sqlite', store: 'bucket' },
] as const;

describe.each(STORES)('delete my account on $dialect, files in a $store', ({ dialect, store }) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let stripe: StripeDouble;
  let bucket: Awaited<ReturnType<typeof startS3Double>> | null = null;
  beforeAll(async () => {
    if (skip) return;
    stripe = await startStripeDouble(KEYS);
    if (store === 'bucket') bucket = await startS3Double();
    server = await startTestServer(dialect, {
      env: {
        STRIPE_SECRET_KEY: KEYS.secretKey,
        STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret,
        STRIPE_API_URL: stripe.url,
        ...bucket?.env(),
      },
    });
    stripe.setWebhook(`${server.base}/api/stripe/webhook`);
    await server.deps.jobs.start();
  });
  afterAll(async () => {
    if (skip) return;
    await server.close();
    await stripe.close();
    await bucket?.close();
  });

  /** Whether the store holds `key`. */
  const stored = async (key: string) => (await mediaOf(server.deps.config).stat(key)) !== null;

  it.skipIf(skip)(
    'leaves no row or file of the person, cancels their plan, keeps the ledger and public mates without them',
    async () => {
      const person = await fullAccount(server);
      const other = await signUp(server);
      // Someone else chats with the person's public mate: kept, that chat goes on.
      const { roomId: othersRoom } = await other.client.room.createRoom({
        mateId: person.publicMate.mateId,
      });
      await other.client.mate.followCreator({ creatorId: person.userInfo.uuid });
      // A paid plan.
      const { url } = await person.client.subscription.checkout({ packageId: 'plus' });
      const session = stripe.sessions.get(url.split('/').pop()!)!;
      expect(await stripe.pay(session.id)).toBe(200);
      const subscriptionId = stripe.sessions.get(session.id)!.subscription as string;
      expect((await person.client.subscription.info()).current).toMatchObject({ status: 'active' });
      // A zip of their data.
      await person.client.user.exportData();
      let exportFile: string | null = null;
      for (let tries = 0; tries < 200 && !exportFile; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        exportFile =
          (
            await server.db
              .selectFrom('data_exports')
              .select('file')
              .where('user_id', '=', person.userInfo.uuid)
              .executeTakeFirst()
          )?.file ?? null;
      }
      expect(exportFile).not.toBeNull();
      const privateMate = await server.db
        .selectFrom('mates')
        .select('avatar')
        .where('id', '=', person.privateMate.mateId)
        .executeTakeFirstOrThrow();
      const privatePortrait = privateMate.avatar.replace(/^\//, '');
      const files = [person.pictureKey, person.clipKey, exportFile!, privatePortrait];
      for (const key of files) expect(await stored(key), key).toBe(true);
      const ledgerBefore = await server.db
        .selectFrom('benefit_ledger')
        .select('id')
        .where('user_id', '=', person.userInfo.uuid)
        .execute();

      // The scan below finds the person where they are, before.
      expect(Object.keys(await rowsNaming(server.db, dialect, [person.userInfo.uuid]))).toEqual(
        expect.arrayContaining([
          'users',
          'sessions',
          'rooms',
          'personas',
          'mates',
          'reviews',
          'favorites',
          'follows',
          'benefit_ledger',
          'checkouts',
          'plan_payments',
          'subscriptions',
          'speech_clips',
          'data_exports',
          'jobs',
          'mate_feedback',
          'user_feedback',
        ]),
      );
      expect(await person.client.user.deletionPreview()).toEqual({
        proofs: ['password'],
        chats: 2,
        personas: 1,
        pictures: 1,
        voiceClips: 1,
        publicMates: 1,
        privateMates: 1,
        paidPlan: true,
      });
      // No proof, or a wrong password: nothing happens.
      expect(
        (await refusal(person.client.user.deleteAccount({ publicMates: 'keep' }))).message,
      ).toBe(en.notices.privacy.proofNeeded);
      expect(
        (
          await refusal(
            person.client.user.deleteAccount({ password: 'wrong horse', publicMates: 'keep' }),
          )
        ).message,
      ).toBe(en.notices.privacy.wrongPassword);
      expect((await person.client.user.benefits()).chats).toBeGreaterThan(0);

      // On SQLite their words ("marmalade") are in the search index's pages, as the server's
      // batch writes them.
      if (dialect === 'sqlite') {
        await indexAllPendingMessages(server.db, dialect);
        expect(await indexPagesHolding(server.db, 'malade')).toBeGreaterThan(0);
      }

      await person.client.user.deleteAccount({ password: 'correct horse', publicMates: 'keep' });

      // Signed out at once, and nobody can sign in to it.
      await expect(person.client.user.benefits()).rejects.toBeInstanceOf(SessionExpiredError);
      await expect(
        server.client().user.login({ email: person.userInfo.email, password: 'correct horse' }),
      ).rejects.toMatchObject({ code: 5007 });
      // The plan ended at Stripe now, not at its period's end.
      expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
      expect(stripe.requests).toContainEqual(
        expect.objectContaining({ method: 'DELETE', path: `/v1/subscriptions/${subscriptionId}` }),
      );

      // No row anywhere names the person, their chats, persona, messages or private mate.
      const messageIds = [person.replyId, person.pictureId];
      expect(
        await rowsNaming(server.db, dialect, [
          person.userInfo.uuid,
          person.userInfo.email,
          person.nickname,
          person.roomId,
          person.branchId,
          person.personaId,
          person.privateMate.mateId,
          person.clipId,
          ...messageIds,
        ]),
      ).toEqual({});
      if (dialect === 'sqlite') {
        // The search index forgets what left it in the indexer's next steps (migration 0043).
        await indexAllPendingMessages(server.db, dialect);
        const indexed = await sql<{ rowid: number }>`SELECT rowid FROM messages_fts
          WHERE messages_fts MATCH ${`owner:"${person.userInfo.uuid}"`}`.execute(server.db);
        expect(indexed.rows).toEqual([]);
        // Nor are their words left in its pages (before migration 0043 they stayed there,
        // behind a tombstone, until a merge), nor in its notes.
        expect(await indexPagesHolding(server.db, 'malade')).toBe(0);
        expect(await indexNotes(server.db, 'messages_fts_forget')).toBe(0);
        expect(await indexNotes(server.db, 'messages_fts_pending')).toBe(0);
      }
      // No file of theirs.
      for (const key of files) expect(await stored(key), key).toBe(false);
      if (bucket) {
        const keys = await bucket.keys();
        for (const key of files) expect(keys).not.toContain(key);
      }

      // The ledger and purchases stay for the accounts, under an anonymous former member.
      const former = await server.db
        .selectFrom('mates')
        .innerJoin('users', 'users.id', 'mates.creator_id')
        .select(['users.id', 'users.nickname', 'users.former_member', 'users.password_hash'])
        .where('mates.id', '=', person.publicMate.mateId)
        .executeTakeFirstOrThrow();
      expect(former).toMatchObject({ nickname: 'a former member', password_hash: null });
      expect(Boolean(former.former_member)).toBe(true);
      const kept = await server.db
        .selectFrom('benefit_ledger')
        .select('id')
        .where('user_id', '=', former.id)
        .execute();
      expect(kept.length).toBeGreaterThanOrEqual(ledgerBefore.length);
      expect(
        await server.db
          .selectFrom('checkouts')
          .select('state')
          .where('user_id', '=', former.id)
          .execute(),
      ).toEqual([{ state: 'paid' }]);
      // The public mate is still there, under "a former member"; the other chat goes on.
      expect(
        (await other.client.mate.getMateDetail({ mateId: person.publicMate.mateId })).creator,
      ).toMatchObject({ name: 'a former member' });
      expect((await other.client.room.roomInfo({ roomId: othersRoom })).readOnly).toBeNull();
      expect(await other.client.mate.followList()).toEqual([]);

      // The address signs up again, as a new person with nothing of the old one.
      const again = await signUp(server, person.userInfo.email);
      expect(again.userInfo.uuid).not.toBe(person.userInfo.uuid);
      expect((await again.client.room.roomList()).list).toEqual([]);
      expect(await again.client.user.personas()).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'deletes the public mates when asked: one others chat with stays readable to them',
    async () => {
      const person = await signUp(server);
      const other = await signUp(server);
      const chatted = await person.client.mate.saveMate(
        mateDraft({ name: 'Talked To', visibility: 'public' }),
      );
      const alone = await person.client.mate.saveMate(
        mateDraft({ name: 'Never Met', visibility: 'public' }),
      );
      const { roomId } = await other.client.room.createRoom({ mateId: chatted.mateId });
      await person.client.user.deleteAccount({ password: 'correct horse', publicMates: 'delete' });
      expect(
        await server.db.selectFrom('mates').select('id').where('id', '=', alone.mateId).execute(),
      ).toEqual([]);
      const retired = await server.db
        .selectFrom('mates')
        .select(['deleted_at', 'creator_id'])
        .where('id', '=', chatted.mateId)
        .executeTakeFirstOrThrow();
      expect(retired.deleted_at).not.toBeNull();
      expect(retired.creator_id).not.toBe(person.userInfo.uuid);
      // The other person's chat keeps every message, read-only.
      const info = await other.client.room.roomInfo({ roomId });
      expect(info.messages.length).toBeGreaterThan(0);
      expect(info.readOnly).not.toBeNull();
      expect(await rowsNaming(server.db, dialect, [person.userInfo.uuid])).toEqual({});
    },
  );
});

describe.each(DIALECTS)('a deletion interrupted by a kill on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  it.skipIf(skip)('completes at the next start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-closing-'));
    const database = dialect === 'postgres' ? await freshDatabase('postgres') : null;
    const config = () =>
      loadConfig({
        DATA_DIR: dataDir,
        PORT: '0',
        PUBLIC_URL: 'http://mates.test',
        SPEECH_PROVIDER: 'none',
        ...(database?.url && { DATABASE_URL: database.url }),
      });
    let running = await startServer(config(), silentLogger());
    try {
      const { db } = running.deps;
      await insertUser(db, {
        id: 'closing-user',
        email: 'leaving@example.com',
        nickname: 'Leaving',
      });
      const token = await createSession(db, 'closing-user');
      const client: ApiClient = (await import('@mates/api-client')).createApiClient({
        baseUrl: `${running.url}/api`,
        getToken: () => token,
        getLanguage: () => 'en',
      });
      const kai = await seededMate(db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: kai.id });
      const picture = await appendMessage(db, roomId, {
        role: 'mate',
        content: '',
        status: 'complete',
        picture: { prompt: 'a harbour', size: '768x1024' },
      });
      const file = 'interruptedpicture0000001.webp';
      await mediaOf(running.deps.config).put(`pictures/${file}`, Buffer.from('webp'), 'image/webp');
      await db
        .updateTable('messages')
        .set({ image_file: file })
        .where('id', '=', picture.id)
        .execute();
      // The request marked the account and ended its sessions; then the process died.
      await markClosing(db, running.deps.dialect, 'closing-user', false, new Date().toISOString());
      await running.close();

      running = await startServer(config(), silentLogger());
      expect(
        await running.deps.db
          .selectFrom('users')
          .select('id')
          .where('id', '=', 'closing-user')
          .execute(),
      ).toEqual([]);
      expect(
        await running.deps.db.selectFrom('rooms').select('id').where('id', '=', roomId).execute(),
      ).toEqual([]);
      expect(await mediaOf(running.deps.config).stat(`pictures/${file}`)).toBeNull();
      expect(
        await rowsNaming(running.deps.db, running.deps.dialect, ['closing-user', roomId]),
      ).toEqual({});
    } finally {
      await running.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
