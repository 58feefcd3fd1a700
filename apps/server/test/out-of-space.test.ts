import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ApiError } from '@mates/api-client';
import { createTestApp, DIALECTS, postgresAvailable, signUp, type TestApp } from './harness';

// Issue #36, item 4: a full disk answered a generic 5000. It is a fault outside the process, as
// a bucket that is down: people are told what happened (5007, in their language) and nothing
// is written.
const withPostgres = await postgresAvailable();

const SAID = {
  en: 'The server is out of storage space. Please try again later.',
  es: 'El servidor se ha quedado sin espacio de almacenamiento. Inténtalo de nuevo más tarde.',
  fr: 'Le serveur n’a plus d’espace de stockage. Réessaie plus tard.',
};

/**
 * Fills the database as a full disk would. SQLite: no page may be added (`max_page_count`),
 * so a write that needs one fails with SQLITE_FULL. PostgreSQL: a new persona row fails with
 * SQLSTATE 53100 (disk_full), the error the server gets when it cannot extend a file.
 */
async function fillDisk(app: TestApp, dialect: 'sqlite' | 'postgres') {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(app.db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(app.db);
    return async () => void (await sql`pragma max_page_count = 1073741823`.execute(app.db));
  }
  await sql`create function mates_test_disk_full() returns trigger language plpgsql as $$
    begin
      raise exception 'could not extend file "base/16384/16402": No space left on device'
        using errcode = 'disk_full';
    end $$`.execute(app.db);
  await sql`create trigger disk_full before insert on personas
    for each row execute function mates_test_disk_full()`.execute(app.db);
  return async () => void (await sql`drop trigger disk_full on personas`.execute(app.db));
}

describe.each(DIALECTS)('a full disk on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });

  it.skipIf(skip)(
    'is a 5007 that says so, in the caller’s language, and writes nothing',
    async () => {
      const { userInfo } = await signUp(app);
      const client = (language: string) => app.client({ token: userInfo.token, language });
      const emptyDisk = await fillDisk(app, dialect);
      const refusals: Record<string, unknown> = {};
      // Personas until one needs room the disk does not have (on SQLite, the first new page).
      for (let n = 0; n < 20 && Object.keys(refusals).length < 3; n++) {
        const language = (['en', 'es', 'fr'] as const)[Object.keys(refusals).length]!;
        const saved = await client(language)
          .user.saveOrUpdatePersona({ name: `Persona ${n}`, description: 'x'.repeat(2000) })
          .catch((error: unknown) => error);
        if (saved instanceof ApiError) refusals[language] = { code: saved.code, m: saved.message };
      }
      expect(refusals).toEqual({
        en: { code: 5007, m: SAID.en },
        es: { code: 5007, m: SAID.es },
        fr: { code: 5007, m: SAID.fr },
      });
      const kept = await client('en').user.personas();
      await emptyDisk();
      // Nothing of a refused call was written; with room again, the same call works.
      expect(await client('en').user.personas()).toEqual(kept);
      await expect(
        client('en').user.saveOrUpdatePersona({ name: 'After', description: '' }),
      ).resolves.toMatchObject({ name: 'After' });
      expect(app.logs.some((line) => /out of storage space/.test(line))).toBe(true);
    },
  );
});
