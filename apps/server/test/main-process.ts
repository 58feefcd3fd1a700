import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

/** The server package's folder: where `src/main.ts` is run from. */
const serverDir = path.resolve(import.meta.dirname, '..');

/**
 * The real server (`src/main.ts`, or another start `script` of this package) in a process of its
 * own, as `pnpm start` runs it, with `env` added to this process's environment. Resolves once it
 * listens, with the address it printed; everything it writes is pushed onto `output` (for a
 * failing test's report). Rejects with that output if it exits first. `nodeArgs` go to `node`
 * before the script (a preloaded module, a flag).
 */
export async function startMainProcess(
  env: Record<string, string>,
  {
    output = [],
    script = 'src/main.ts',
    nodeArgs = [],
  }: { output?: string[]; script?: string; nodeArgs?: string[] } = {},
): Promise<{ child: ChildProcess; url: string }> {
  const args = ['--conditions=@mates/source', ...nodeArgs, '--import', 'tsx', script];
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output.push(data.toString());
      const listening = /listening on (http:\/\/\S+)\s/.exec(output.join(''));
      if (listening) resolve(listening[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output.join('')}`)));
  });
  return { child, url };
}
