/** Socket error codes that mean a remote engine was never reached. */
const NOT_REACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The first string `code` on `error` or its chain of causes (at most 5 deep). */
export function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether `error` says the remote end was never reached (refused, unknown host, no route). */
export function wasNotReached(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && NOT_REACHED.has(code);
}
