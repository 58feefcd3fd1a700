import { z } from 'zod';
import type { VariableValues } from './environment';

/** The database's variables: PostgreSQL's address (else SQLite in `DATA_DIR`) and migrations. */
export const databaseVariables = {
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  MIGRATE: z.enum(['auto', 'new', 'off']).optional(),
};

/** What to do with pending migrations at start: see {@link DatabaseSettings.migrate}. */
export type MigrateMode = 'auto' | 'new' | 'off';

/** The part of the configuration the database's variables give. */
export interface DatabaseSettings {
  databaseUrl: string | undefined;
  /**
   * What start (and the commands) do with migrations the database has not run (`MIGRATE`):
   * `auto` runs them; `new` runs them only on a database that has none yet; `off` runs none.
   * Where one is left pending, start refuses. Default: `auto` on SQLite, `new` on PostgreSQL.
   */
  migrate: MigrateMode;
}

/** Reads `DATABASE_URL` and `MIGRATE`. */
export function readDatabaseSettings(
  values: VariableValues<typeof databaseVariables>,
): DatabaseSettings {
  return {
    databaseUrl: values.DATABASE_URL,
    migrate: values.MIGRATE ?? (values.DATABASE_URL ? 'new' : 'auto'),
  };
}
