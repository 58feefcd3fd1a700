import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

/** The signing key every server of a test deployment shares (`LINK_SECRET`). */
export const TEST_LINK_SECRET = 'a-test-link-secret-of-thirty-two-characters-or-more';

/**
 * A real S3-compatible server for tests (s3rver: S3's REST API over files in a temporary
 * folder), on a free port of 127.0.0.1, with one empty bucket. `env` is what a server needs to
 * keep its files there; `keys` lists the bucket; `stop` takes it down (an outage), `close` also
 * removes its folder.
 */
export async function startS3Double(bucket = 'mates-test') {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver takes any signature made with its default keys.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
  });
  let running = true;
  const stop = async () => {
    if (running) await server.close();
    running = false;
  };
  return {
    endpoint,
    bucket,
    env: (): Record<string, string> => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      LINK_SECRET: TEST_LINK_SECRET,
    }),
    /** Every key in the bucket under `prefix`, sorted. */
    async keys(prefix = ''): Promise<string[]> {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    stop,
    async close() {
      await stop();
      client.destroy();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
