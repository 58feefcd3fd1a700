// How long `/user/forgotPassword` takes to answer for an address an account uses and for one
// none uses (issue #36: 14.9 ms against 6.8 ms once, which told who has an account). The calls
// alternate, so that both see the same work still running after earlier answers. Through the
// real app (`app.request`, no socket), on SQLite and, when it answers, PostgreSQL.
// BENCH_FORGOT_CALLS (default 300) sets the calls timed for each address. Prints a table and
// saves bench/results/forgot-password.json.
import os from 'node:os';
import { createTestApp, postgresAvailable, signUp } from '../test/harness';
import { saveResults, type ResultRow } from './results';

const CALLS = Number(process.env.BENCH_FORGOT_CALLS ?? 300);

const round = (ms: number) => Math.round(ms * 1000) / 1000;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]!;

async function measure(dialect: 'sqlite' | 'postgres'): Promise<ResultRow[]> {
  const app = await createTestApp(dialect);
  try {
    const { userInfo } = await signUp(app);
    const addresses = { 'has an account': userInfo.email, 'has none': 'nobody@example.com' };
    const timings: Record<string, number[]> = { 'has an account': [], 'has none': [] };
    const ask = async (email: string) => {
      const started = performance.now();
      await app.client().user.forgotPassword({ email });
      return performance.now() - started;
    };
    for (let call = 0; call < 20; call++) await ask(Object.values(addresses)[call % 2]!);
    for (let call = 0; call < CALLS * 2; call++) {
      const [label, email] = Object.entries(addresses)[call % 2]!;
      timings[label]!.push(await ask(email));
    }
    return Object.entries(timings).map(([label, values]) => ({
      database: dialect,
      address: label,
      'median ms': round(median(values)),
      'p90 ms': round(p90(values)),
    }));
  } finally {
    await app.close();
  }
}

const rows = await measure('sqlite');
if (await postgresAvailable()) rows.push(...(await measure('postgres')));
else console.log('PostgreSQL does not answer: SQLite only.');
console.log(
  `forgotPassword's answer for an address with an account and without (${CALLS} calls each, alternating, ${os.cpus().length} cores).`,
);
console.table(rows);
saveResults('forgot-password', rows);
