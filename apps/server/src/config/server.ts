import path from 'node:path';
import { z } from 'zod';
import { compileTrustProxy, type TrustProxy } from '../http/caller-address';
import { ConfigError, type VariableValues } from './environment';

/** The server's own variables: where it listens, its address, its data and its stop. */
export const serverVariables = {
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url().optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TRUST_PROXY: z.string().min(1).optional(),
  SHUTDOWN_TIMEOUT: z.coerce.number().min(0).max(600).default(10),
};

/** The part of the configuration the server's own variables give. */
export interface ServerSettings {
  port: number;
  dataDir: string;
  publicUrl: string;
  webDistDir: string;
  /** Which proxies may tell the caller's address (`TRUST_PROXY`). */
  trustProxy: TrustProxy;
  /** How long a stop waits for replies being written to save and end (`SHUTDOWN_TIMEOUT`). */
  shutdownTimeoutMs: number;
}

/**
 * Reads the server's settings but `TRUST_PROXY`, which {@link readTrustProxy} checks later,
 * after the engines, where it has always been checked. `defaultWebDistDir` is the built web
 * app's folder, found from the module that calls this (see `loadConfig`).
 */
export function readServerSettings(
  values: VariableValues<typeof serverVariables>,
  defaultWebDistDir: string,
): Omit<ServerSettings, 'trustProxy'> {
  return {
    port: values.PORT,
    dataDir: path.resolve(values.DATA_DIR),
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    webDistDir: path.resolve(values.WEB_DIST_DIR ?? defaultWebDistDir),
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT * 1000,
  };
}

/** Reads `TRUST_PROXY`; a list it cannot compile stops the start with what it takes. */
export function readTrustProxy(value: string | undefined): TrustProxy {
  try {
    return compileTrustProxy(value);
  } catch (error) {
    throw new ConfigError(
      `Invalid TRUST_PROXY: ${(error as Error).message}; give a number of proxies, or addresses, CIDR ranges, loopback, linklocal or uniquelocal, separated by commas (got ${JSON.stringify(value)})`,
    );
  }
}
