import { wellFormedJson } from '../domain/well-formed';
/** Which database a connection speaks. */
export type DialectName = 'sqlite' | 'postgres';

/** Column types that differ between the dialects, for migrations. */
export function columnTypes(dialect: DialectName) {
  return dialect === 'sqlite'
    ? ({ timestamp: 'text', bool: 'integer', json: 'text', serial: 'integer' } as const)
    : ({ timestamp: 'timestamptz', bool: 'boolean', json: 'jsonb', serial: 'bigserial' } as const);
}

/** An auto-numbered primary key: INTEGER AUTOINCREMENT on SQLite, BIGSERIAL on PostgreSQL. */
export function serialPrimaryKey(dialect: DialectName) {
  return <C extends { primaryKey: () => C; autoIncrement: () => C }>(column: C): C =>
    dialect === 'sqlite' ? column.primaryKey().autoIncrement() : column.primaryKey();
}

/** Reads a boolean column (0/1 on SQLite, true/false on PostgreSQL). */
export const toBool = (value: unknown): boolean => value === true || value === 1;

/** Reads a JSON column (text on SQLite, already parsed on PostgreSQL). */
export function fromJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

// JSON.stringify writes half of a surrogate pair as `\udXXX`, which PostgreSQL's jsonb refuses
// (the write failed as a server error): kept as U+FFFD, keys too (see `wellFormedJson`).
/** Writes a JSON column: a string that both dialects accept. */
export const toJson = (value: unknown): string => JSON.stringify(value, wellFormedJson);

/** The current time as stored. */
export const now = (): string => new Date().toISOString();

/** Whether `error` is a unique constraint refusing a write, on either database. */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};
