/**
 * The server's configuration, read from the environment once at start. Each concern defines
 * its variables, their checks, its types and its part of {@link Config} in `config/`; this
 * module composes them and keeps the names every importer uses.
 */
import path from 'node:path';
import { z } from 'zod';
import {
  accountVariables,
  readAccountSettings,
  signInVariables,
  type AccountSettings,
} from './config/accounts';
import { databaseVariables, readDatabaseSettings, type DatabaseSettings } from './config/database';
import { ConfigError, parseEnvironment, type Environment } from './config/environment';
import { imageVariables, readImageSettings, type ImageSettings } from './config/images';
import { llmVariables, readLlmSettings, type LlmSettings } from './config/llm';
import { logVariables, readLogSettings, type LogSettings } from './config/logging';
import { mailVariables, readMailSettings, type MailSettings } from './config/mail';
import { metricsVariables, readMetricsSettings, type MetricsSettings } from './config/metrics';
import { paymentVariables, readPaymentSettings, type PaymentSettings } from './config/payments';
import { readRedisSettings, redisVariables, type RedisSettings } from './config/redis';
import {
  readServerSettings,
  readTrustProxy,
  serverVariables,
  type ServerSettings,
} from './config/server';
import { readSpeechSettings, speechVariables, type SpeechSettings } from './config/speech';
import { readStorageSettings, storageVariables, type StorageSettings } from './config/storage';
import {
  readTranscriptionSettings,
  transcriptionVariables,
  type TranscriptionSettings,
} from './config/transcription';

export { ConfigError };
export type { MigrateMode } from './config/database';
export type { ImageConfig, ImageProvider } from './config/images';
export type { MetricsConfig } from './config/metrics';
export type { PackageConfig, PaymentsConfig } from './config/payments';
export type { RedisConfig } from './config/redis';
export type { SpeechConfig, SpeechFormat, SpeechRemoteConfig } from './config/speech';
export type { S3Config } from './config/storage';
export type {
  LocalTranscriptionConfig,
  RemoteTranscriptionConfig,
  TranscriptionConfig,
} from './config/transcription';

/** The server's configuration, read from the environment once at start. */
export interface Config
  extends
    ServerSettings,
    StorageSettings,
    DatabaseSettings,
    MailSettings,
    AccountSettings,
    LlmSettings,
    ImageSettings,
    SpeechSettings,
    TranscriptionSettings,
    RedisSettings,
    LogSettings,
    MetricsSettings,
    PaymentSettings {}

/**
 * Every variable the server reads, each defined by its concern. Listed in the order they have
 * always been checked: when several are wrong, the first of them here is the one named.
 */
export const environmentSchema = z.object({
  PORT: serverVariables.PORT,
  DATA_DIR: serverVariables.DATA_DIR,
  ...databaseVariables,
  PUBLIC_URL: serverVariables.PUBLIC_URL,
  ...mailVariables,
  ...signInVariables,
  WEB_DIST_DIR: serverVariables.WEB_DIST_DIR,
  ...llmVariables,
  ...imageVariables,
  ...speechVariables,
  ...transcriptionVariables,
  ...storageVariables,
  ...redisVariables,
  TRUST_PROXY: serverVariables.TRUST_PROXY,
  SHUTDOWN_TIMEOUT: serverVariables.SHUTDOWN_TIMEOUT,
  ...logVariables,
  ...metricsVariables,
  ...paymentVariables,
  ...accountVariables,
});

/**
 * The built web app when `WEB_DIST_DIR` is not set: `apps/web/dist`. Found from here, not from
 * `config/`: this module's folder is `src/` when run from source and `dist/` once built into
 * `main.js`, two levels below `apps/` either way.
 */
const DEFAULT_WEB_DIST_DIR = path.join(import.meta.dirname, '..', '..', 'web', 'dist');

/** Reads and checks the configuration; throws a {@link ConfigError} naming the bad variable. */
export function loadConfig(env: Environment = process.env): Config {
  const values = parseEnvironment(environmentSchema, env);
  const server = readServerSettings(values, DEFAULT_WEB_DIST_DIR);
  const { dataDir } = server;
  // The checks that look at several variables run in this order (a bucket's, the engines',
  // TRUST_PROXY's, the metrics', Stripe's, the packages file's): the first that fails is named.
  return {
    ...server,
    ...readStorageSettings(values, env, dataDir),
    ...readDatabaseSettings(values),
    ...readMailSettings(values, dataDir),
    ...readAccountSettings(values),
    ...readLlmSettings(values, dataDir),
    ...readImageSettings(values, env),
    ...readSpeechSettings(values, env, dataDir),
    ...readTranscriptionSettings(values, env, dataDir),
    ...readRedisSettings(values),
    trustProxy: readTrustProxy(values.TRUST_PROXY),
    ...readLogSettings(values),
    ...readMetricsSettings(values, server.port),
    ...readPaymentSettings(values),
  };
}
