// Module hooks of module-trace.mjs (they run on the loader's own thread).
import fs from 'node:fs';

let trace;

export function initialize(data) {
  trace = data.trace;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  fs.appendFileSync(trace, `${resolved.url}\n`);
  return resolved;
}
