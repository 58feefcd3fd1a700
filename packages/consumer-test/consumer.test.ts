import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createConsumerProject, exec, repoRoot, type ConsumerProject } from './consumer-project';

// The workspace's own TypeScript compiles the consumers.
const tsc = createRequire(join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');

/** The ESM TypeScript consumers: every entry point, and the README's msw example. */
const ESM_FILES = ['ts-consumer.tsx', 'msw-example.ts'] as const;

let project: ConsumerProject;

beforeAll(async () => {
  project = await createConsumerProject();
  await writeFile(join(project.dir, 'msw-example.ts'), await readmeMswExample());
});

function node(args: string[], cwd = project.dir) {
  return exec(process.execPath, args, cwd);
}

/** Type-checks `files` in the consumer project with the given module settings. */
async function typecheck(name: string, module: string, resolution: string, files: string[]) {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023', 'DOM'],
      module,
      moduleResolution: resolution,
      jsx: 'react-jsx',
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      types: ['node'],
    },
    files,
  };
  await writeFile(join(project.dir, `tsconfig.${name}.json`), JSON.stringify(config, null, 2));
  const result = await exec(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], project.dir);
  return { code: result.code, errors: result.stdout + result.stderr };
}

/** The Node example of the api-client README's msw section, as the README shows it. */
async function readmeMswExample(): Promise<string> {
  const readme = await readFile(join(repoRoot, 'packages/api-client/README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const example = blocks.find((block) => block.includes("from 'msw/node'"));
  if (!example) throw new Error('the api-client README has no msw/node example');
  return example;
}

describe('the packed packages installed with npm into a fresh project', () => {
  it('are imported as ES modules in Node and work: a call, a store, an actor, a render', async () => {
    const result = await node(['esm-consumer.mjs']);
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(out.mate).toBe('m-7 Aria');
    expect(out.refusal).toBe('4004 not here');
    expect(out.tags).toEqual(['fantasy']);
    expect(out.popup).toEqual({ open: 'editing' });
    expect(out.mode).toBe(2);
    expect(out.button).toMatch(/^<button[^>]*>Say hello<\/button>$/);
  });

  it('are ES modules only: no CommonJS build, and Node >= 20.19 loads them with require()', async () => {
    const client = JSON.parse(
      await readFile(join(project.dir, 'node_modules/@mates/api-client/package.json'), 'utf8'),
    ) as { type: string; main?: string; exports: Record<string, unknown> };
    expect(client.type).toBe('module');
    expect(client.main).toBeUndefined();
    expect(JSON.stringify(client.exports)).not.toContain('.cjs');

    const result = await node(['require-consumer.cjs']);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      methods: 'function',
      paths: true,
      language: 'en',
      button: true,
    });
  });

  // One compiler run per module setting (each reads every package's types, skipLibCheck off),
  // side by side: tsc uses one core, and each run writes only its own tsconfig.
  it.concurrent(
    'type-check in an ESM TypeScript project under moduleResolution bundler',
    async ({ expect }) => {
      const result = await typecheck('bundler', 'ESNext', 'Bundler', [...ESM_FILES]);
      expect(result.errors).toBe('');
      expect(result.code).toBe(0);
    },
  );

  it.concurrent(
    'type-check under node16 in ESM and in CommonJS with import(); a static import from CommonJS is TS1479',
    async ({ expect }) => {
      const files = [...ESM_FILES, 'ts-cjs-consumer.cts', 'ts-cjs-static.cts'];
      const result = await typecheck('node16', 'Node16', 'Node16', files);
      expect(result.code).not.toBe(0);
      // The one error: node16 models a Node without require(esm), and says what to do instead.
      const errors = result.errors.trim().split('\n');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^ts-cjs-static\.cts\(\d+,\d+\): error TS1479: /);
      expect(errors[0]).toContain(`Consider writing a dynamic 'import("@mates/api-client")' call`);
    },
  );

  it.concurrent(
    'type-check under nodenext in ESM and in CommonJS with a static import (require of ESM)',
    async ({ expect }) => {
      const files = [...ESM_FILES, 'ts-cjs-static.cts'];
      const result = await typecheck('nodenext', 'NodeNext', 'NodeNext', files);
      expect(result.errors).toBe('');
      expect(result.code).toBe(0);
    },
  );

  it("run the api-client README's msw example in Node, with an absolute base URL", async () => {
    await writeFile(join(project.dir, 'msw-example.mjs'), await readmeMswExample());
    const result = await node(['msw-example.mjs']);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual([
      'm-1 Aria',
      'Please verify your e-mail first.',
      'Hello!',
    ]);
  });
});

describe('@mates/api-client installed without msw, its optional peer', () => {
  it('installs no msw, and the client works', async () => {
    const result = await node(
      [
        '--input-type=module',
        '-e',
        `import { createApiClient } from '@mates/api-client';
         console.log(typeof createApiClient({ baseUrl: '/api', getToken: () => '', getLanguage: () => 'en' }).mate.search);`,
      ],
      project.withoutMswDir,
    );
    expect(result.stdout.trim()).toBe('function');
    await expect(
      readFile(join(project.withoutMswDir, 'node_modules/msw/package.json')),
    ).rejects.toThrow(/ENOENT/);
  });

  it('says that the msw entry needs msw when it is imported', async () => {
    const result = await node(
      ['--input-type=module', '-e', `await import('@mates/api-client/msw');`],
      project.withoutMswDir,
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /Cannot find package 'msw' imported from \S*@mates\/api-client\/dist\/msw\/index\.js/,
    );
  });
});
