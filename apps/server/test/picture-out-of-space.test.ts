import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { JobStatus } from '@mates/api-client';
import { postgresAvailable, seededMate, signUp, startTestServer, until } from './harness';
import { startAutomatic1111Double } from './image-doubles';
import { OUT_OF_SPACE } from '../src/domain/out-of-space';

// A picture drawn while the disk is full fails saying so (the 5007 sentence), not with the
// database's own words, and gives the coins back. PostgreSQL only: its disk_full (53100) can
// be raised by a trigger on the one write that records the picture, where SQLite's SQLITE_FULL
// comes only from a page the file cannot add (the reply test fills SQLite's disk).
const withPostgres = await postgresAvailable();

describe.skipIf(!withPostgres)('a picture recorded on a full disk, on postgres', () => {
  let double: Awaited<ReturnType<typeof startAutomatic1111Double>>;
  let app: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    double = await startAutomatic1111Double();
    app = await startTestServer('postgres', {
      env: {
        IMAGE_PROVIDER: 'automatic1111',
        IMAGE_BASE_URL: double.url,
        IMAGE_COST: '7',
        WELCOME_GOLD_COINS: '20',
      },
    });
    await app.deps.jobs.start();
  });
  afterAll(async () => {
    await app?.close();
    await double?.close();
  });

  it('fails saying the server is out of space, and gives the coins back', async () => {
    const { client } = await signUp(app);
    const mate = await seededMate(app.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    await sql`create or replace function mates_test_picture_disk_full() returns trigger language plpgsql as $$
      begin
        raise exception 'could not extend file "base/16384/16402": No space left on device'
          using errcode = 'disk_full';
      end $$`.execute(app.db);
    await sql`create trigger picture_disk_full before update on messages
      for each row when (new.image_file is not null)
      execute function mates_test_picture_disk_full()`.execute(app.db);
    try {
      for (let n = 0; n < 5; n++) double.queue.push({ kind: 'ok' });
      const ref = await client.room.createImage({ roomId, prompt: 'Kai in the rain' });
      const failed = await until(
        () => client.room.checkJobStatus({ jobId: ref.jobId }),
        (status: JobStatus) => ['succeeded', 'failed', 'cancelled'].includes(status.state),
      );
      expect(failed).toMatchObject({ state: 'failed', error: OUT_OF_SPACE });
      expect((await client.user.benefits()).goldCoins).toBe(20);
    } finally {
      await sql`drop trigger picture_disk_full on messages`.execute(app.db);
    }
  });
});
