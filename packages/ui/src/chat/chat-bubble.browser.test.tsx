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

async function bubble(content: string): Promise<HTMLElement> {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () =>
    root!.render(
      <ThemeProvider theme="dark">
        <ChatBubble role="mate" speaker="Lyra" content={content} />
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
