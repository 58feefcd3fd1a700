import fs from 'node:fs';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config';
import { bucketName, describeBucket } from './describe-bucket';
import {
  checkMediaKey,
  contentTypeOf,
  StorageUnavailable,
  type MediaInfo,
  type MediaStore,
} from './media-store';

/** How long connecting to the bucket may take, and one request to it, in ms. */
const CONNECT_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * A file is sent in parts of this size, two at a time (so at most 32 MiB of it in memory): one
 * PutObject stops at 5 GB, and S3 takes up to 10,000 parts (160 GB at this size). A file
 * smaller than one part is one PutObject.
 */
export const UPLOAD_PART_BYTES = 16 * 1024 * 1024;

/**
 * Whether the service said there is no such object (a HEAD's 404 has no error code); a missing
 * bucket is a fault of the set-up, not a missing object.
 */
const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  error.name !== 'NoSuchBucket' &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.$metadata.httpStatusCode === 404);

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Ceph, Garage…) through the
 * official AWS SDK, under `prefix` + the key, each with its media type (a file in parts). Every
 * server of a deployment reads and writes the same objects. The SDK retries a failed request
 * (3 attempts); what still fails is a {@link StorageUnavailable} naming the bucket.
 */
export function createS3Store(
  s3: S3Config,
  /** The size of an upload's parts (tests send small files in parts; S3's least is 5 MiB). */
  partBytes = UPLOAD_PART_BYTES,
): MediaStore {
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    credentials: s3.credentials,
    maxAttempts: 3,
    // Checksums only where S3 requires them: many S3-compatible services refuse the newer
    // checksum headers the SDK would otherwise send on every upload.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  });
  const where = bucketName(s3);
  const target = (key: string) => ({ Bucket: s3.bucket, Key: s3.prefix + checkMediaKey(key) });
  const unavailable = (error: unknown, what: string): never => {
    throw new StorageUnavailable(`${where}: ${what}: ${(error as Error).message}`, {
      cause: error,
    });
  };
  return {
    describe: () => describeBucket(s3),
    async put(key, body, contentType) {
      try {
        await client.send(
          new PutObjectCommand({
            ...target(key),
            Body: typeof body === 'string' ? Buffer.from(body) : body,
            ContentType: contentType,
          }),
        );
      } catch (error) {
        unavailable(error, `writing ${key}`);
      }
    },
    async putFile(key, file, contentType) {
      // @aws-sdk/lib-storage's Upload: a multipart upload read from the file as it goes, its
      // parts retried by the SDK; a failed upload is aborted, so no parts are left behind.
      const upload = new Upload({
        client,
        params: { ...target(key), Body: fs.createReadStream(file), ContentType: contentType },
        partSize: partBytes,
        queueSize: 2,
      });
      try {
        await upload.done();
      } catch (error) {
        unavailable(error, `writing ${key}`);
      }
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand(target(key)));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (error) {
        return isMissing(error) ? null : unavailable(error, `reading ${key}`);
      }
    },
    async stat(key): Promise<MediaInfo | null> {
      try {
        const head = await client.send(new HeadObjectCommand(target(key)));
        return {
          size: head.ContentLength ?? 0,
          contentType: head.ContentType ?? contentTypeOf(key),
          etag: head.ETag ?? `"${(head.ContentLength ?? 0).toString(16)}"`,
          lastModified: head.LastModified ?? new Date(0),
        };
      } catch (error) {
        return isMissing(error) ? null : unavailable(error, `reading ${key}`);
      }
    },
    async read(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({
            ...target(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return answer.Body!.transformToWebStream() as ReadableStream<Uint8Array>;
      } catch (error) {
        return isMissing(error) ? null : unavailable(error, `reading ${key}`);
      }
    },
    async remove(key) {
      try {
        await client.send(new DeleteObjectCommand(target(key)));
      } catch (error) {
        // Already gone is what was asked for.
        if (!isMissing(error)) unavailable(error, `removing ${key}`);
      }
    },
    async check() {
      // HeadBucket asks for what the store needs already: a missing object is told from a
      // denied one only with the right to list the bucket.
      try {
        await client.send(new HeadBucketCommand({ Bucket: s3.bucket }));
      } catch (error) {
        unavailable(error, 'checking the bucket');
      }
    },
  };
}
