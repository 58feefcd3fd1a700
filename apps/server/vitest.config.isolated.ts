import { defineProject } from 'vitest/config';
import { ISOLATED, SERVER_PROJECT } from './vitest.config';

/** The server tests that replace a module (`vi.mock`), each with its own copy of the modules. */
export default defineProject({
  ...SERVER_PROJECT,
  test: { ...SERVER_PROJECT.test, name: 'server (isolated)', include: ISOLATED, isolate: true },
});
