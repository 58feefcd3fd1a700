import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataExport } from '@mates/api-client';
import { createTestApp, signUp, type TestApp } from './harness';
import { startS3Double } from './s3-double';
import { fullAccount, readZip } from './your-data-helpers';
import { mediaOf } from '../src/media/media-of';

// Issue 41: on S3-compatible storage, a "Download my data" zip is uploaded to the bucket,
// downloads whole (and by ranges) through its link, and leaves the bucket when it expires and
// when its owner deletes the account. The bucket is s3rver (test/s3-double.ts).
// Three exports and a deletion through s3rver: more than the 20 s default on a busy machine.
const SLOW = 120_000;

describe('download my data with files in a bucket', () => {
  let bucket: Awaited<ReturnType<typeof startS3Double>>;
  let app: TestApp;

  beforeAll(async () => {
    bucket = await startS3Double();
    app = await createTestApp('sqlite', { env: bucket.env() });
    await app.deps.jobs.start();
  }, SLOW);
  afterAll(async () => {
    await app.close();
    await bucket.close();
  });

  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  async function readyExport(client: ReturnType<TestApp['client']>): Promise<DataExport> {
    const started = await client.user.exportData();
    for (let tries = 0; tries < 200; tries++) {
      const { latest } = await client.user.exportStatus();
      if (latest?.exportId === started.exportId && latest.state === 'ready') return latest;
      if (latest?.state === 'failed') throw new Error(`the export failed: ${latest.error}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the export did not finish');
  }

  /** The export's object key, as its row records it. */
  const fileOf = async (exportId: string) =>
    (
      await app.db
        .selectFrom('data_exports')
        .select('file')
        .where('id', '=', exportId)
        .executeTakeFirstOrThrow()
    ).file;

  /** The download link's answer, asked for as `person`'s browser asks. */
  const download = (
    link: string,
    person: { userInfo: { token: string } },
    headers: Record<string, string> = {},
  ) => app.app.request(link, { headers: { token: person.userInfo.token, ...headers } });

  it(
    'uploads the zip to the bucket, serves it whole through its link, and removes it when it expires',
    async () => {
      // A picture and a voice clip in the bucket, read from it into the zip.
      const person = await fullAccount(app);

      const latest = await readyExport(person.client);
      const key = (await fileOf(latest.exportId))!;
      expect(key).toMatch(/^exports\/[\w-]+\.zip$/);
      expect(await bucket.keys('exports/')).toEqual([key]);
      const stored = (await mediaOf(app.deps.config).get(key))!;
      expect(stored.length).toBe(latest.size);

      const answer = await download(latest.downloadUrl!, person);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/zip');
      expect(answer.headers.get('content-length')).toBe(String(latest.size));
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(sha(bytes)).toBe(sha(stored));
      const zip = await readZip(bytes);
      expect(zip.get(`pictures/${person.pictureId}.webp`)).toEqual(person.pictureBytes);
      expect(zip.get(`voice/${person.clipId}.mp3`)).toEqual(person.clipBytes);
      expect(JSON.parse(zip.get('account.json')!.toString()).account.email).toBe(
        person.userInfo.email,
      );

      // A download taken up again asks for the rest: the bucket answers that range.
      const rest = await download(latest.downloadUrl!, person, { range: 'bytes=1000-' });
      expect(rest.status).toBe(206);
      expect(rest.headers.get('content-range')).toBe(
        `bytes 1000-${bytes.length - 1}/${bytes.length}`,
      );
      expect(Buffer.from(await rest.arrayBuffer())).toEqual(bytes.subarray(1000));

      // Past its time: the object leaves the bucket, the link answers nothing.
      await app.db
        .updateTable('data_exports')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', latest.exportId)
        .execute();
      expect((await person.client.user.exportStatus()).latest).toMatchObject({
        state: 'expired',
        downloadUrl: null,
      });
      expect(await bucket.keys('exports/')).toEqual([]);
      expect((await download(latest.downloadUrl!, person)).status).toBe(404);
    },
    SLOW,
  );

  it(
    "removes the zip from the bucket when its owner deletes the account, and no one else's",
    async () => {
      const person = await signUp(app);
      const other = await signUp(app);
      const mine = await readyExport(person.client);
      const theirs = await readyExport(other.client);
      const [mineKey, theirsKey] = [await fileOf(mine.exportId), await fileOf(theirs.exportId)];
      expect(await bucket.keys('exports/')).toEqual([mineKey, theirsKey].sort());
      expect((await download(mine.downloadUrl!, person)).status).toBe(200);

      await person.client.user.deleteAccount({ password: 'correct horse', publicMates: 'delete' });

      expect(await bucket.keys('exports/')).toEqual([theirsKey]);
      // Its link answers nothing any more: its owner's session went with the account.
      expect(await (await download(mine.downloadUrl!, person)).json()).toMatchObject({ c: 5002 });
      const kept = await download(theirs.downloadUrl!, other);
      expect(kept.status).toBe(200);
      expect(Buffer.from(await kept.arrayBuffer()).length).toBe(theirs.size);
    },
    SLOW,
  );
});
