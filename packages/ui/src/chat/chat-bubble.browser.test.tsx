import { afterEach, expect, test } from 'vitest';
import { createRoot, type Root } from 'react-dom/client';
import { act } from 'react';
import { ThemeProvider } from '../theme/theme-provider';
import { ChatBubble } from './chat-bubble';

let root: Root | null = null;
let host: HTMLElement | null = null;

afterEach(async () => {
  await act(async () => root?.unmount());
  host?.remove();
  root = host = null;
});

async function bubble(content: string, streaming = false): Promise<HTMLElement> {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () =>
    root!.render(
      <ThemeProvider theme="dark">
        <ChatBubble role="mate" speaker="Lyra" content={content} streaming={streaming} />
      </ThemeProvider>,
    ),
  );
  return host;
}

test("a mate's text loads pictures only from this server's media; others become links", async () => {
  const shown = await bubble(
    [
      'Look: ![pixel](https://tracker.example/p.gif?u=42)',
      '![relative](//tracker.example/q.gif) ![up](/media/../api/user/info)',
      '![portrait](/media/avatars/lyra.svg)',
    ].join('\n\n'),
  );
  const sources = [...shown.querySelectorAll('img')].map((img) => img.getAttribute('src'));
  expect(sources).toEqual(['/media/avatars/lyra.svg']);
  const links = [...shown.querySelectorAll('a')].map((a) => [
    a.textContent,
    a.getAttribute('href'),
  ]);
  expect(links).toEqual([
    ['pixel', 'https://tracker.example/p.gif?u=42'],
    ['relative', '//tracker.example/q.gif'],
    ['up', '/media/../api/user/info'],
  ]);
  for (const link of shown.querySelectorAll('a')) expect(link.rel).toContain('noreferrer');
});

test('a reply with a long line of code stays as wide as the chat, its code scrolled sideways', async () => {
  const shown = await bubble(
    [
      'Try this:',
      '```ts\nconst aVeryLongNameThatGoesOnAndOnWithoutAnyBreakAtAllForeverAndEverAndEver = 1;\n```',
      'Then read https://example.com/a/very/long/address/that/does/not/break/at/all/anywhere.',
    ].join('\n\n'),
  );
  shown.style.width = '320px';
  shown.style.display = 'flex';
  shown.style.flexDirection = 'column';
  const right = shown.getBoundingClientRect().right;
  const words = [...shown.querySelectorAll('p, pre')];
  // Every part of the reply, the words after the code too, is within the chat's width.
  expect(words.map((part) => part.getBoundingClientRect().right <= right + 0.5)).toEqual(
    words.map(() => true),
  );
  const code = shown.querySelector('pre')!;
  expect(code.scrollWidth).toBeGreaterThan(code.clientWidth);
  expect(getComputedStyle(code).overflowX).toBe('auto');
});

test('the caret of a reply still arriving follows its last words, on their line', async () => {
  for (const content of ['Hello there.', 'Two things:\n\n- the map\n- the key']) {
    const whole = await bubble(content);
    const wholeHeight = whole
      .querySelector('[role="article"] > div')!
      .getBoundingClientRect().height;
    await act(async () => root?.unmount());
    host?.remove();
    const arriving = await bubble(content, true);
    const box = arriving.querySelector('[role="article"] > div')!.getBoundingClientRect();
    // No line of its own: the message does not grow a line, then shrink when the reply ends.
    expect(box.height).toBe(wholeHeight);
    // And it is there, after the last words (a list's last item's).
    const last = [...arriving.querySelectorAll('p, li')].at(-1)!;
    expect(getComputedStyle(last, '::after').content).toBe('""');
    expect(getComputedStyle(last, '::after').width).not.toBe('0px');
    await act(async () => root?.unmount());
    host?.remove();
  }
  // Before the first word, the caret alone shows that the reply is coming.
  const empty = await bubble('', true);
  const caret = empty.querySelector('[role="article"] > div')!;
  expect(caret.getBoundingClientRect().height).toBeGreaterThan(10);
});

test('a reply with a table shows a table, scrolled sideways inside the chat when it is wide', async () => {
  const shown = await bubble(
    [
      'Your week:',
      '| Day | Plan | Hours |\n| --- | --- | ---: |\n| Monday | Library shift at the old observatory by the harbour | 4 |\n| Tuesday | Rest | 0 |',
      'Sound good?',
    ].join('\n\n'),
  );
  shown.style.width = '320px';
  shown.style.display = 'flex';
  shown.style.flexDirection = 'column';
  const table = shown.querySelector('table')!;
  expect(table).not.toBeNull();
  expect([...table.querySelectorAll('th')].map((cell) => cell.textContent)).toEqual([
    'Day',
    'Plan',
    'Hours',
  ]);
  expect([...table.querySelectorAll('tbody tr')].map((row) => row.textContent)).toEqual([
    'MondayLibrary shift at the old observatory by the harbour4',
    'TuesdayRest0',
  ]);
  // The table's own box, not the page, scrolls: the words after it stay within the chat.
  const right = shown.getBoundingClientRect().right;
  for (const part of shown.querySelectorAll('p, table'))
    expect(part.getBoundingClientRect().right).toBeLessThanOrEqual(right + 0.5);
  expect(getComputedStyle(table).overflowX).toBe('auto');
});

test('a double tilde strikes words through, a single one (roleplay\'s "hi~") stays as written', async () => {
  const shown = await bubble('Hello~ friend~ I ~~hate~~ love tea~');
  expect([...shown.querySelectorAll('del')].map((struck) => struck.textContent)).toEqual(['hate']);
  expect(shown.textContent).toContain('Hello~ friend~ I hate love tea~');
});

test('an address written out in a reply is a link that opens elsewhere', async () => {
  const shown = await bubble('The map is at https://maps.example.org/harbour, or www.example.com.');
  const links = [...shown.querySelectorAll('a')];
  expect(links.map((link) => link.getAttribute('href'))).toEqual([
    'https://maps.example.org/harbour',
    'http://www.example.com',
  ]);
  for (const link of links) {
    expect(link.target).toBe('_blank');
    expect(link.rel).toContain('noopener');
  }
});
