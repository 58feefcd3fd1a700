import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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

const webBoundary = boundaries.find(({ files }) => files[0] === 'apps/web/**');

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
    // bulletproof-react: a feature imports shared code (app, components, hooks, i18n), never
    // another feature; what two features need moves to shared code.
    files: ['apps/web/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // This replaces the apps/web entry above for features, so it repeats that one.
            { group: ['@mates/server', '@mates/server/*'], message: webBoundary.why },
            {
              regex: '^\\.\\./(?!\\.\\./)',
              message: 'A feature does not import another feature; move shared code out.',
            },
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
                'CARD_FORMATS',
                'CARD_SOURCE_SPECS',
                'CARD_SPECS',
                'GENDERS',
                'JOB_STATES',
                'LEDGER_KINDS',
                'CHECKOUT_STATES',
                'MATE_FEEDBACK_REASONS',
                'MATE_VISIBILITIES',
                'MESSAGE_ROLES',
                'MESSAGE_STATUSES',
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
