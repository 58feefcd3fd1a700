import path from 'node:path';
import { z } from 'zod';
import { ConfigError, httpUrl, type Environment, type VariableValues } from './environment';

/** Where stored files live (`DATA_DIR`, or an S3 bucket) and the key their links are signed with. */
export const storageVariables = {
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
    )
    .optional(),
  S3_ENDPOINT: httpUrl(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.stringbool().default(false),
  S3_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/?$/,
      'must be folder names of letters, digits, _ and - separated by /',
    )
    .optional(),
  LINK_SECRET: z.string().min(32, 'must be at least 32 characters (random)').optional(),
  EXPORT_TIMEOUT: z.coerce.number().min(1).max(86_400).default(1800),
};

/** The bucket of stored files (`S3_BUCKET`, `S3_ENDPOINT`…). */
export interface S3Config {
  bucket: string;
  /** An S3-compatible service's address (MinIO, R2, Ceph…); absent: AWS S3 of `region`. */
  endpoint: string | undefined;
  region: string;
  /** Both or neither: without them the AWS SDK's own chain (its env variables, a role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `bucket` in the path (`https://host/bucket/key`), as most S3-compatible services want. */
  forcePathStyle: boolean;
  /** Put before every key (`mates/` → `mates/media/avatars/…`): `''` or ends with `/`. */
  prefix: string;
}

/** The part of the configuration the storage variables give. */
export interface StorageSettings {
  /**
   * Portraits served under `/media`: `$DATA_DIR/media` (their keys `media/…` in the media
   * store, a folder at `DATA_DIR` unless `s3` is set).
   */
  mediaDir: string;
  /** The S3-compatible bucket that holds every stored file (`S3_*`), or `null` for `DATA_DIR`. */
  s3: S3Config | null;
  /**
   * The key that signs picture and voice links (`LINK_SECRET`), or `null` to make one and keep
   * it in `$DATA_DIR/picture-secret`.
   */
  linkSecret: string | null;
  /**
   * How long building one "Download my data" zip may take (`EXPORT_TIMEOUT`, seconds): a run
   * past it fails, and a run whose process died is taken up again only after it.
   */
  exportTimeoutMs: number;
}

/** Reads where files are stored; `env` names an `S3_*` variable set without `S3_BUCKET`. */
export function readStorageSettings(
  values: VariableValues<typeof storageVariables>,
  env: Environment,
  dataDir: string,
): StorageSettings {
  return {
    mediaDir: path.join(dataDir, 'media'),
    s3: readS3Config(values, env),
    linkSecret: values.LINK_SECRET ?? null,
    exportTimeoutMs: values.EXPORT_TIMEOUT * 1000,
  };
}

function readS3Config(
  values: VariableValues<typeof storageVariables>,
  env: Environment,
): S3Config | null {
  if (!values.S3_BUCKET) {
    const stray = [
      'S3_ENDPOINT',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
      'S3_PREFIX',
    ].find((name) => env[name]);
    if (stray)
      throw new ConfigError(
        `Invalid S3_BUCKET: ${stray} is set but S3_BUCKET is not; name the bucket, or unset ${stray} (got undefined)`,
      );
    return null;
  }
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = values;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new ConfigError(
      `Invalid ${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: give both S3 keys, or neither to use the AWS SDK's own credentials (got undefined)`,
    );
  // Links signed by one server are opened on another: they must all sign alike.
  if (!values.LINK_SECRET)
    throw new ConfigError(
      'Invalid LINK_SECRET: with S3_BUCKET set, servers share their files, and a picture or voice link made by one must open on every other; give each server the same random string of at least 32 characters (got undefined)',
    );
  const prefix = values.S3_PREFIX?.replace(/\/+$/, '');
  return {
    bucket: values.S3_BUCKET,
    endpoint: values.S3_ENDPOINT?.replace(/\/+$/, ''),
    region: values.S3_REGION,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: values.S3_FORCE_PATH_STYLE,
    prefix: prefix ? `${prefix}/` : '',
  };
}
