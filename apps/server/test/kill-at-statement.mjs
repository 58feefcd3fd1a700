// Preloaded with `node --import` by start-kill.test.ts: counts the statements the process sends
// to its database (SQLite through better-sqlite3, PostgreSQL through pg) and kills the process
// with SIGKILL, as a power cut or an OOM kill would, just before statement MATES_KILL_AT
// (1 = the first). The count so far is kept in the file MATES_STATEMENT_COUNT, so a test can
// read how many statements a start took and spread its kills over them.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const killAt = Number(process.env.MATES_KILL_AT ?? 0);
const countFile = process.env.MATES_STATEMENT_COUNT;
let count = 0;

function counted() {
  count += 1;
  if (count === killAt) process.kill(process.pid, 'SIGKILL');
  if (countFile) fs.writeFileSync(countFile, String(count));
}

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const statementProto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
for (const method of ['run', 'all', 'get', 'iterate']) {
  const original = statementProto[method];
  statementProto[method] = function (...args) {
    counted();
    return original.apply(this, args);
  };
}
const pg = require('pg');
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  counted();
  return query.apply(this, args);
};
