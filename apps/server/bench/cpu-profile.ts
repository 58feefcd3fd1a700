import fs from 'node:fs';
import { Session } from 'node:inspector/promises';

/** Profiles this process while `work` runs, when BENCH_CPU_PROFILE names a file. */
const profiler = process.env.BENCH_CPU_PROFILE ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  // A sample every 100 µs (V8's default is 1 ms): a cached call or a send's first steps take
  // less than a millisecond.
  await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
}

/**
 * Runs `work`, profiling it when BENCH_CPU_PROFILE names a file. Each run's profile is written
 * apart: `name.cpuprofile`, `name.2.cpuprofile`, …
 */
export async function profiled<T>(work: () => Promise<T>): Promise<T> {
  if (!profiler) return work();
  await profiler.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await profiler.post('Profiler.stop');
    const file = process.env.BENCH_CPU_PROFILE!;
    let name = file;
    for (let index = 2; fs.existsSync(name); index += 1)
      name = file.replace(/\.cpuprofile$/, `.${index}.cpuprofile`);
    fs.writeFileSync(name, JSON.stringify(profile));
  }
}

/**
 * Runs `work` under V8's profiler (a sample every 100 µs) whatever BENCH_CPU_PROFILE says, and
 * answers its result with the profile, for a bench to summarise.
 */
export async function profileOf<T>(
  work: () => Promise<T>,
): Promise<{ result: T; profile: object }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    return { result, profile };
  } finally {
    session.disconnect();
  }
}
