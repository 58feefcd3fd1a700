const marker = Symbol.for('mates.api-client.error.StreamParseError');

/** A `data:` line of a streamed reply did not hold valid JSON. Reported, never thrown. */
export class StreamParseError extends Error {
  private readonly [marker] = true;
  override readonly name: string = 'StreamParseError';
  /** The whole offending line, as received. */
  readonly line: string;

  constructor(line: string, cause: unknown) {
    super(`Malformed data line: ${line.length > 80 ? `${line.slice(0, 80)}…` : line}`, {
      cause,
    });
    this.line = line;
  }

  /** Whether `error` is a {@link StreamParseError}, across package copies too. */
  static isInstance(error: unknown): error is StreamParseError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
