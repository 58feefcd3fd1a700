import { randomBytes } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createS3Store } from '../src/media/s3-store';
import { StorageUnavailable } from '../src/media/media-store';
import { startS3Double } from './s3-double';

// A file (a data export's zip) goes to the bucket in parts: one PutObject stops at 5 GB. The
// parts here are S3's smallest (5 MiB), so that an 11 MiB file takes three.
const PART = 5 * 1024 * 1024;

describe('files sent to an S3-compatible bucket', () => {
  let bucket: Awaited<ReturnType<typeof startS3Double>>;
  let folder: string;
  beforeAll(async () => {
    bucket = await startS3Double();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-s3-store-'));
  });
  afterAll(async () => {
    await bucket.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });
  const store = () => createS3Store(loadConfig({ DATA_DIR: folder, ...bucket.env() }).s3!, PART);

  async function readWhole(stream: ReadableStream<Uint8Array>) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  it('sends a large file in parts and a small one whole, each read back as it was', async () => {
    const large = path.join(folder, 'large.zip');
    const bytes = randomBytes(2 * PART + 1024 * 1024);
    fs.writeFileSync(large, bytes);
    const small = path.join(folder, 'small.zip');
    fs.writeFileSync(small, 'a small zip');
    const media = store();
    // The requests as they leave for the bucket (Node's own HTTP client channel).
    const sent: string[] = [];
    const onRequest = (message: unknown) =>
      sent.push((message as { request: ClientRequest }).request.path);
    diagnostics.subscribe('http.client.request.start', onRequest);
    try {
      await media.putFile('exports/large.zip', large, 'application/zip');
      await media.putFile('exports/small.zip', small, 'application/zip');
    } finally {
      diagnostics.unsubscribe('http.client.request.start', onRequest);
    }
    expect(
      sent.filter((at) => at.includes('/exports/large.zip') && /partNumber=/.test(at)),
    ).toHaveLength(3);
    expect(sent.filter((at) => at.includes('/exports/small.zip'))).toHaveLength(1);
    const head = await media.stat('exports/large.zip');
    expect(head).toMatchObject({ size: bytes.length, contentType: 'application/zip' });
    expect((await readWhole((await media.read('exports/large.zip'))!)).equals(bytes)).toBe(true);
    expect((await media.get('exports/small.zip'))!.toString()).toBe('a small zip');
  });

  it('says the bucket cannot be reached when an upload fails, and the process goes on', async () => {
    const other = await startS3Double();
    const media = createS3Store(loadConfig({ DATA_DIR: folder, ...other.env() }).s3!, PART);
    await other.close();
    const file = path.join(folder, 'lost.zip');
    fs.writeFileSync(file, randomBytes(PART + 1));
    await expect(media.putFile('exports/lost.zip', file, 'application/zip')).rejects.toThrow(
      StorageUnavailable,
    );
  });
});
