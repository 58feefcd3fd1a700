import type { S3Config } from '../config';

/** Which bucket a deployment's files are in, as the start log and `describe()` name it. */
export function bucketName(s3: S3Config): string {
  return `bucket ${s3.bucket}${s3.endpoint ? ` at ${s3.endpoint}` : ` (AWS ${s3.region})`}`;
}

/** The S3 store's `describe()`: its bucket, and the prefix its keys go under. */
export function describeBucket(s3: S3Config): string {
  return `S3 ${bucketName(s3)}${s3.prefix ? `, keys under ${s3.prefix}` : ''}`;
}
