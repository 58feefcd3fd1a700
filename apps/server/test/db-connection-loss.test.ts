import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { ApiError, type ApiClient } from '@mates/api-client';
import { POSTGRES_ADMIN_URL, postgresAvailable, signUp, startTestServer } from './harness';

const withPostgres = await postgresAvailable();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls of several kinds, two of them writing in a transaction. */
function callsOf(client: ApiClient, mateId: string): Array<() => Promise<unknown>> {
  return [
    () => client.mate.recommend({ pageSize: 5 }),
    () => client.user.personas(),
    () => client.user.doFavorite({ mateId }),
    () => client.mate.review({ mateId, rating: 4, content: 'Kept going.' }),
    () => client.mate.getMateDetail({ mateId }),
  ];
}

describe.skipIf(!withPostgres)('PostgreSQL connections cut during traffic', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => void uncaught.push(error);
  beforeAll(async () => {
    // The server runs in this process: an unhandled 'error' event would end a real one.
    process.on('uncaughtException', onUncaught);
    server = await startTestServer('postgres');
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await server?.close();
  });

  it('fails the calls in flight with envelopes, stays up and serves again', async () => {
    const { client } = await signUp(server);
    const { mateId } = (await client.mate.recommend({ pageSize: 1 })).list[0]!;
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(
      server.db,
    );
    const calls = callsOf(client, mateId);
    const failures: unknown[] = [];
    let cutShort = 0;
    let running = true;
    const caller = async (offset: number) => {
      for (let i = offset; running; i++) {
        await calls[i % calls.length]!().catch((error: unknown) => {
          const envelope = ApiError.isInstance(error) && [5000, 5007].includes(error.code);
          if (envelope) cutShort++;
          else failures.push(error);
        });
      }
    };
    const callers = Array.from({ length: 6 }, (_, offset) => caller(offset));
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    let terminated = 0;
    try {
      for (let round = 0; round < 8; round++) {
        await pause(150);
        const result = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [rows[0]!.name],
        );
        terminated += result.rowCount ?? 0;
      }
    } finally {
      running = false;
      await Promise.all(callers);
      await admin.end();
    }

    expect(terminated).toBeGreaterThan(0);
    expect(cutShort).toBeGreaterThan(0);
    expect(uncaught.map(String)).toEqual([]);
    expect(failures.map(String)).toEqual([]);
    // The next calls get fresh connections.
    for (const call of calls) await expect(call()).resolves.toBeDefined();
    expect(server.logs.some((line) => line.startsWith('PostgreSQL connection lost'))).toBe(true);
  });

  it('bounds how long a statement or an idle transaction may hold a connection', async () => {
    const shown = async (setting: string) =>
      (await sql<Record<string, string>>`show ${sql.raw(setting)}`.execute(server.db)).rows[0]![
        setting
      ];
    expect(await shown('statement_timeout')).toBe('30s');
    expect(await shown('idle_in_transaction_session_timeout')).toBe('1min');
  });
});
