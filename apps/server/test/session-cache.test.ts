import { afterEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { createSession, resolveSession } from '../src/accounts/sessions';
import { forgetUserSessions } from '../src/accounts/session-cache';
import { hashToken } from '../src/accounts/secrets';
import { freshDatabase, insertUser, postgresAvailable } from './harness';
import { waitFor } from './jobs-helpers';

// A session kept in a server's cache must end when what ends it is said (a password changed,
// an account deleted), and a forget that never arrived may leave it for a minute at most.
const withPostgres = await postgresAvailable();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the session cache', () => {
  it('reads a session in constant use again from the database after a minute', async () => {
    // A forget lost on its way (Redis refused the publish) is bounded by the cache's minute;
    // every use of a cached session pushed that minute back, so a session used at least once a
    // minute was never read again, and lived on that server for good.
    const database = await freshDatabase('sqlite');
    try {
      const { db } = database;
      await insertUser(db, { id: 'user-ada', email: 'ada@example.com' });
      const token = await createSession(db, 'user-ada');
      const start = performance.now();
      let offset = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => start + offset);
      const at = async (ms: number) => {
        offset = ms;
        // The cache reads its clock once a millisecond.
        await new Promise((resolve) => setTimeout(resolve, 5));
      };
      expect((await resolveSession(db, token))?.id).toBe('user-ada');
      // Ended behind this server's back: the forget was lost.
      await db.deleteFrom('sessions').execute();
      await at(30_000);
      expect((await resolveSession(db, token))?.id).toBe('user-ada');
      await at(61_000);
      expect(await resolveSession(db, token)).toBeNull();
    } finally {
      await database.drop();
    }
  });

  it.skipIf(!withPostgres)(
    'does not keep a session forgotten while it was written as seen',
    async () => {
      // A session last written as seen over an hour ago is written again on its next use; a
      // password changed on another device while that write waited was forgotten here, and the
      // session then put back in the cache, alive for another minute after its row was gone.
      const database = await freshDatabase('postgres');
      try {
        const { db } = database;
        await insertUser(db, { id: 'user-ada', email: 'ada@example.com' });
        const token = await createSession(db, 'user-ada');
        const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
        await db.updateTable('sessions').set({ last_seen_at: longAgo }).execute();

        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let holding!: () => void;
        const held = new Promise<void>((resolve) => (holding = resolve));
        // The other device's password change: it holds the session's row, deletes it, and
        // commits once this server has heard the forget.
        const change = db.transaction().execute(async (trx) => {
          await trx.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
          holding();
          await released;
        });
        await held;
        const use = resolveSession(db, token);
        // The use reads the row (not locked against reads) and waits to write it as seen.
        await waitFor(
          async () =>
            Number(
              (
                await sql<{ count: string }>`SELECT count(*) AS count FROM pg_stat_activity
                  WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)
              ).rows[0]!.count,
            ),
          (count) => count > 0,
        );
        await forgetUserSessions(db, 'user-ada');
        release();
        await change;
        await use;
        expect(await resolveSession(db, token)).toBeNull();
      } finally {
        await database.drop();
      }
    },
  );
});
