import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The peer range says React 18.3 works: this installs React 18.3 and the kit's own
// dependencies with npm into a fresh project, puts the built package beside them, and
// renders components there, where no React 19 can be reached.
const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
const REACT_18 = '18.3.1';

/** The consumer's page: server-renders a few components and prints what came out. */
const RENDER_SCRIPT = `
import { createElement as h, version } from 'react';
import { renderToString } from 'react-dom/server';
import { Button, ChatBubble, Switch, Tabs, TextField, ThemeProvider, getCssText } from '@mates/ui';
const html = renderToString(
  h(ThemeProvider, null,
    h(Button, null, 'Sign in'),
    h(TextField, { label: 'Email', value: '', onChange() {} }),
    h(Switch, { label: 'Show nsfw', checked: true, onCheckedChange() {} }),
    h(Tabs, { label: 'Sections', tabs: [{ value: 'a', label: 'About', content: 'About me' }] }),
    h(ChatBubble, { role: 'mate', speaker: 'Mika', content: '**hello**' }),
  ),
);
console.log(JSON.stringify({ version, html, css: getCssText() }));
`;

function createConsumer(): string {
  const dist = path.join(PACKAGE_DIR, 'dist');
  if (!fs.existsSync(path.join(dist, 'index.js'))) {
    throw new Error('No build of @mates/ui: run `pnpm --filter @mates/ui build` first.');
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  // The kit's runtime dependencies as published; the workspace ones are only imported as types.
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies as Record<string, string>).filter(
      ([name]) => !name.startsWith('@mates/'),
    ),
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-ui-react-18-'));
  const consumer = {
    name: 'react-18-consumer',
    private: true,
    type: 'module',
    dependencies: { ...dependencies, react: REACT_18, 'react-dom': REACT_18 },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(consumer, null, 2));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: dir,
    stdio: 'pipe',
  });
  const installed = path.join(dir, 'node_modules', '@mates', 'ui');
  fs.mkdirSync(installed, { recursive: true });
  fs.copyFileSync(path.join(PACKAGE_DIR, 'package.json'), path.join(installed, 'package.json'));
  fs.cpSync(dist, path.join(installed, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'render.js'), RENDER_SCRIPT);
  return dir;
}

describe('the built package under React 18.3', () => {
  let dir = '';
  let rendered: { version: string; html: string; css: string };

  beforeAll(() => {
    dir = createConsumer();
    rendered = JSON.parse(execFileSync('node', ['render.js'], { cwd: dir, encoding: 'utf8' }));
  }, 300_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders with React 18.3, not the workspace React', () => {
    expect(rendered.version).toBe(REACT_18);
  });

  it('renders the components, Radix parts included', () => {
    expect(rendered.html).toContain('Sign in');
    expect(rendered.html).toContain('role="switch"');
    expect(rendered.html).toContain('role="tablist"');
    expect(rendered.html).toContain('<strong>hello</strong>');
  });

  it('collects the styles of what it rendered', () => {
    const classes = [...rendered.html.matchAll(/class="(mates-c-[\w-]+)/g)]
      .map((match) => match[1]!)
      .filter((name) => name !== 'mates-c-PJLV');
    expect(classes.length).toBeGreaterThan(5);
    expect(classes.filter((name) => !rendered.css.includes(`.${name}`))).toEqual([]);
  });
});
