import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

// Dependencies point one way (docs/architecture.md): ui, api-client ← state-machines ← web, and the
// server takes only types from api-client. Each entry lists what a place may NOT import.
const boundaries = [
  {
    files: ['packages/api-client/**'],
    forbidden: ['@mates/state-machines', '@mates/ui', '@mates/web', '@mates/server'],
    why: 'api-client is the base of the graph and imports no other workspace package.',
  },
  {
    files: ['packages/ui/**'],
    forbidden: ['@mates/state-machines', '@mates/web', '@mates/server'],
    why: 'ui is presentational: it may use api-client types, never flows or apps.',
  },
  {
    files: ['packages/state-machines/**'],
    forbidden: ['@mates/ui', '@mates/web', '@mates/server', 'react', 'react-dom'],
    why: 'state-machines are framework-free: no React, no UI, no apps.',
  },
  {
    files: ['apps/web/**'],
    forbidden: ['@mates/server'],
    why: 'the web app talks to the server only through @mates/api-client.',
  },
  {
    files: ['apps/server/**'],
    forbidden: ['@mates/ui', '@mates/state-machines', '@mates/web'],
    why: 'the server implements the api-client contract and imports nothing else.',
  },
];

// Inside the web app, imports point one way too (docs/architecture.md, "The web app's
// folders"; bulletproof-react is the model): app/ composes features/, which use components/,
// hooks/, i18n/ and lib/; nothing imports app/ or reaches into another feature.
const web = 'apps/web/src';
const features = readdirSync(`${web}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webZones = [
  {
    target: `./${web}/features`,
    from: `./${web}/app`,
    message: 'app/ is the router and the layout; what features share lives in lib/.',
  },
  {
    target: [`./${web}/lib`, `./${web}/components`, `./${web}/hooks`, `./${web}/i18n`],
    from: [`./${web}/features`, `./${web}/app`],
    message: 'Shared code does not import features or app/: it is what they are built from.',
  },
  {
    target: `./${web}/lib`,
    from: [`./${web}/components`, `./${web}/hooks`],
    message: 'lib/ is the bottom layer: components and hooks build on it, not the other way.',
  },
  // A feature imports no other feature (none does today: what two features need moves to
  // lib/, components/ or hooks/). An allowance would be one more entry in its `except`.
  ...features.map((feature) => ({
    target: `./${web}/features/${feature}`,
    from: `./${web}/features`,
    except: [`./${feature}`],
    message: 'A feature does not import another feature; move what they share out of features/.',
  })),
];

// The server's features are layered (docs/architecture.md, "Routes, services, repositories"):
// a `*-routes.ts` file parses, calls a service and answers; a `*-service.ts` file holds the
// rules as plain functions over its dependencies, with no HTTP; a `*-repository.ts` file reads
// and writes the database. Imports point one way: routes → services → repositories. Services
// and repositories report refusals as `DomainError`s (`domain/errors.ts`); only `http/` and
// the routes know envelopes.
const server = 'apps/server/src';
const serverZones = [
  {
    target: `./${server}/**/*-repository.ts`,
    from: [`./${server}/**/*-service.ts`, `./${server}/**/*-routes.ts`, `./${server}/http/**`],
    message: 'A repository reads and writes the database; it calls no service, route or HTTP code.',
  },
  {
    target: `./${server}/**/*-service.ts`,
    from: [`./${server}/**/*-routes.ts`, `./${server}/http/**`],
    message:
      'A service knows nothing of HTTP: throw a DomainError (domain/errors.ts), which http/ maps to an envelope.',
  },
  {
    target: `./${server}/**/*-routes.ts`,
    from: `./${server}/**/*-repository.ts`,
    message: 'A route calls a service, which calls the repository.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/coverage/**',
      '**/storybook-static/**',
      '**/node_modules/**',
      '.storybook/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportAllDeclaration',
          message: 'Use explicit named exports (docs/contributing.md, style).',
        },
        { selector: 'ThrowStatement > Literal', message: 'Throw an error class, never a string.' },
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...boundaries.map(({ files, forbidden, why }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: forbidden.flatMap((name) => [name, `${name}/*`]), message: why }] },
      ],
    },
  })),
  {
    // Imports resolve as TypeScript's do (extensionless, `.js` naming a `.ts` file), so the
    // import-x rules follow them to files.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // The rules read the modules an import leads to, TypeScript's too (default: `.js` only).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
          conditionNames: ['@mates/source', 'import', 'default'],
        }),
      ],
    },
    rules: {
      // A cycle makes the order modules start in depend on who is imported first, and hides
      // a layer that should be split. Type-only imports are not followed (they vanish when built).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: [`${web}/**`],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: webZones }],
    },
  },
  {
    files: [`${server}/**`],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: serverZones },
      ],
    },
  },
  {
    files: [`${server}/**/*-service.ts`, `${server}/**/*-repository.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['hono', 'hono/*', '@hono/*'],
              message: 'Services and repositories know nothing of HTTP (routes do).',
            },
            ...boundaries
              .filter(({ files }) => files.includes('apps/server/**'))
              .map(({ forbidden, why }) => ({
                group: forbidden.flatMap((name) => [name, `${name}/*`]),
                message: why,
              })),
          ],
        },
      ],
    },
  },
  {
    // A promise nobody awaits or catches ends the process when it rejects (a failed save
    // during a streamed reply did): every one in the server is awaited, caught or voided.
    files: ['apps/server/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The server may read the contract's types and its literal lists (plain `as const` data,
    // bundled into the server's build), not run the client's code; its tests play the
    // browser and use the real client.
    files: ['apps/server/src/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@mates/api-client', '@mates/api-client/*'],
              allowTypeImports: true,
              allowImportNames: [
                'ALTERNATE_GREETINGS_LIMIT',
                'CALL_AUDIO',
                'CARD_FORMATS',
                'CARD_SOURCE_SPECS',
                'CARD_SPECS',
                'CHAT_EXPORT_FORMATS',
                'EXPORT_TICKET_SECONDS',
                'DEFAULT_TALKATIVENESS',
                'GENDERS',
                'GROUP_LIMITS',
                'GROUP_TURN_ORDERS',
                'JOB_STATES',
                'LEDGER_KINDS',
                'CHECKOUT_STATES',
                'MATE_FEEDBACK_REASONS',
                'MATE_TAGS_LIMIT',
                'MATE_TEXT_LIMITS',
                'MATE_VISIBILITIES',
                'MEMORIES_PER_ROOM_MAX',
                'MEMORY_SUBJECTS',
                'MEMORY_TEXT_MAX',
                'MESSAGE_ROLES',
                'MESSAGE_STATUSES',
                'NICKNAME_MAX_LENGTH',
                'PUBLIC_MATES_CHOICES',
                'REGENERABLE_FIELDS',
                'REPORT_QUEUE_STATES',
                'ROLE_DRAFT_COST_CHATS',
                'SEARCH_SORTS',
                'USER_FEEDBACK_CATEGORIES',
                'VOICE_SAMPLE_MAX',
              ],
              message:
                'The server imports only types and the literal lists (GENDERS, …) from @mates/api-client.',
            },
          ],
        },
      ],
    },
  },
);
