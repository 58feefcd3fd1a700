// Preloaded with `node --import` by start-path.test.ts: appends the file of every module the
// process loads, ES module or CommonJS, to the file named by MATES_MODULE_TRACE.
import fs from 'node:fs';
import { createRequire, register } from 'node:module';

const trace = process.env.MATES_MODULE_TRACE;
if (trace) {
  register(new URL('./module-trace-hooks.mjs', import.meta.url), { data: { trace } });
  const Module = createRequire(import.meta.url)('node:module');
  const load = Module._load;
  Module._load = function traced(request, parent, isMain) {
    const exports = load.call(this, request, parent, isMain);
    try {
      fs.appendFileSync(trace, `${Module._resolveFilename(request, parent, isMain)}\n`);
    } catch {
      // A built-in or a name it cannot resolve again: nothing to record.
    }
    return exports;
  };
}
