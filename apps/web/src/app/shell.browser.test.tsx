import { afterEach, describe, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { RouterProvider, createHashRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { ENDPOINTS, GENDERS, type EndpointPath } from '@mates/api-client';
import { DEFAULT_RESOLVERS } from '@mates/api-client/msw';
import { ThemeProvider } from '@mates/ui';
import { createServices } from '../lib/services';
import { ServicesProvider } from '../lib/services-context';
import { routes } from './router';
import { NOT_FOUND, ROUTES } from '../lib/paths';
import { moveCodeIntoHash } from './discord-guard';
import { DISCORD_STATE_KEY } from '../lib/discord-state';
import productDoc from '../../../../docs/product.md?raw';

// Answers every call from the contract's own default resolvers, as the MSW handlers do.
const fakeFetch: typeof fetch = async (input, init) => {
  const url = new URL(String(input), 'http://app.test');
  if (url.pathname === '/api/girl/chat/send')
    return streamReply(JSON.parse(String(init?.body)) as { content: string });
  if (url.pathname === '/api/room/roomInfo') {
    const info = (await DEFAULT_RESOLVERS['/room/roomInfo']({
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      request: new Request(url),
    })) as { messages: unknown[] };
    return new Response(
      JSON.stringify({ c: 200, m: '', d: { ...info, messages: [...info.messages, ...saved] } }),
    );
  }
  const path = url.pathname.replace(/^\/api/, '') as Exclude<EndpointPath, '/girl/chat/send'>;
  const resolve = DEFAULT_RESOLVERS[path] as unknown as ((request: unknown) => unknown) | undefined;
  if (!resolve || !(path in ENDPOINTS))
    return new Response(JSON.stringify({ c: 4004, m: 'no such call', d: null }));
  const d = await resolve({
    query: Object.fromEntries(url.searchParams),
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
    request: new Request(url),
  });
  return new Response(JSON.stringify({ c: 200, m: '', d }), {
    headers: { 'content-type': 'application/json' },
  });
};

// Messages the fake server has saved, as the real one saves each sent message and reply.
const saved: unknown[] = [];

// Streams a reply the way the server does: data lines, then [DONE].
function streamReply(payload: { content: string }): Response {
  const events = [
    {
      type: 'reply-start',
      roomId: 'room-1',
      userMessage: {
        messageId: 'm-user',
        roomId: 'room-1',
        role: 'user',
        content: payload.content,
        status: 'complete',
        createdAt: '',
        editedAt: null,
      },
      messageId: 'm-reply',
    },
    { type: 'reply-delta', text: 'Once upon ' },
    { type: 'reply-delta', text: 'a lighthouse.' },
    {
      type: 'reply-end',
      messageId: 'm-reply',
      finishReason: 'stop',
      usage: { promptTokens: 1, completionTokens: 2 },
      benefits: { chats: 41, goldCoins: 7, userId: 'user-1' },
    },
  ];
  saved.push(
    {
      messageId: 'm-user',
      roomId: 'room-1',
      role: 'user',
      content: payload.content,
      status: 'complete',
      createdAt: '',
      editedAt: null,
    },
    {
      messageId: 'm-reply',
      roomId: 'room-1',
      role: 'mate',
      content: 'Once upon a lighthouse.',
      status: 'complete',
      createdAt: '',
      editedAt: null,
    },
  );
  const body =
    events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + 'data: [DONE]\n\n';
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

let root: Root | null = null;

async function open(path: string) {
  window.location.hash = `#${path}`;
  const router = createHashRouter(routes);
  const services = createServices({
    apiBase: '/api',
    fetch: fakeFetch,
    storage: window.sessionStorage,
    tabStorage: window.sessionStorage,
    navigate: (to) => void router.navigate(to),
    reload: () => {},
  });
  await services.ready;
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () =>
    root!.render(
      <ThemeProvider>
        <ServicesProvider services={services}>
          <I18nextProvider i18n={services.i18n}>
            <QueryClientProvider client={services.queries}>
              <RouterProvider router={router} />
            </QueryClientProvider>
          </I18nextProvider>
        </ServicesProvider>
      </ThemeProvider>,
    ),
  );
  return { router, services };
}

afterEach(async () => {
  await act(async () => root?.unmount());
  document.body.innerHTML = '';
  window.sessionStorage.clear();
  saved.length = 0;
});

describe('the route table of docs/product.md', () => {
  test('has all 25 paths', () => {
    expect(ROUTES).toHaveLength(25);
    expect(new Set(ROUTES.map((route) => route.path)).size).toBe(25);
  });

  test('is the table of docs/product.md, row by row', () => {
    const rows = productDoc
      .split('\n')
      .filter((line) => line.startsWith('| `/'))
      .map((line) => {
        const [path, screen, header, footer] = line
          .split('|')
          .slice(1, 5)
          .map((cell) => cell.trim());
        return {
          path: path!.replaceAll('`', ''),
          screen,
          header: header === 'yes',
          footer: footer === 'yes',
        };
      });
    expect(rows).toEqual(ROUTES);
  });

  test.each(ROUTES)(
    '$path shows header: $header, footer: $footer',
    async ({ path, header, footer }) => {
      await open(path);
      // Every screen but the first is a lazy chunk: the layout shows once it has arrived.
      await expect.element(page.getByRole('main')).toBeVisible();
      expect(document.querySelectorAll('header')).toHaveLength(header ? 1 : 0);
      expect(document.querySelectorAll('footer')).toHaveLength(footer ? 1 : 0);
      if (header) await expect.element(page.getByRole('banner')).toBeVisible();
      if (footer) await expect.element(page.getByRole('contentinfo')).toBeVisible();
      await expect.element(page.getByRole('main')).toBeVisible();
    },
  );

  test('any other path is the not-found page, with header and footer', async () => {
    await open('/no/such/page');
    await expect.element(page.getByText('This page does not exist')).toBeVisible();
    expect(NOT_FOUND).toMatchObject({ header: true, footer: true });
    await expect.element(page.getByRole('banner')).toBeVisible();
    await expect.element(page.getByRole('contentinfo')).toBeVisible();
  });
});

describe('the discover page and the sign-in popup', () => {
  test('lists recommended mates and opens the sign-in popup from the header', async () => {
    await open('/');
    await expect.element(page.getByRole('heading', { name: 'Discover mates' })).toBeVisible();
    await expect.poll(() => page.getByRole('article').elements().length).toBe(8);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.element(page.getByRole('dialog', { name: 'Sign in to Mates' })).toBeVisible();
  });

  test('offers one gender chip per gender of the contract, after "Everyone"', async () => {
    await open('/');
    const chips = page.getByRole('group', { name: 'Show' }).getByRole('button');
    await expect.poll(() => chips.elements().length).toBe(GENDERS.length + 1);
    expect(chips.elements().map((chip) => chip.textContent)).toEqual([
      'Everyone',
      'Women',
      'Men',
      'Non-binary',
    ]);
  });
});

describe('the chat screen', () => {
  test('shows the conversation and streams a reply to a sent message', async () => {
    const { services } = await open('/chat-detail?roomId=room-1');
    const log = page.getByRole('log', { name: 'Conversation' });
    await expect.element(log).toBeVisible();
    await expect.poll(() => log.element().querySelectorAll('[role="article"]').length).toBe(3);
    await page.getByRole('textbox', { name: 'Message' }).fill('Tell me a story');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.element(page.getByText('Once upon a lighthouse.')).toBeVisible();
    await expect.poll(() => services.store.getSnapshot().context.userBenefits.chats).toBe(41);
  });

  test('the detail page opens a chat, or the sign-in popup for a visitor', async () => {
    await open('/detail?mateId=mate-1');
    await page.getByRole('button', { name: 'Chat with Lyra Moonwhisper' }).click();
    await expect.element(page.getByRole('dialog', { name: 'Sign in to Mates' })).toBeVisible();
  });
});

describe('e-mail verification', () => {
  test('polls with the ticket, signs in once verified, and lands on redirect_url', async () => {
    window.sessionStorage.setItem(
      'mates.user',
      JSON.stringify({
        userInfo: { language: 'en' },
        registerEmail: 'new@example.com',
        verifyTicket: 'tk-1',
      }),
    );
    const { services } = await open(
      '/verify-email-address?redirect_url=%2Fdetail%3FmateId%3Dmate-2',
    );
    await expect.poll(() => Boolean(services.store.getSnapshot().context.userInfo.uuid)).toBe(true);
    await expect.poll(() => window.location.hash).toBe('#/detail?mateId=mate-2');
  });

  test('without a pending sign-up, offers to sign up', async () => {
    const { services } = await open('/verify-email-address');
    await expect.element(page.getByText('Nothing to verify')).toBeVisible();
    // Nothing is polled without an address: the visitor stays signed out.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
  });
});

describe('navigation', () => {
  test('scrolls the main container back to the top after each navigation', async () => {
    await page.viewport(1280, 500);
    const { router } = await open('/');
    await expect.poll(() => page.getByRole('article').elements().length).toBe(8);
    // The main container is what scrolls: the parent of <main>.
    const scroller = document.querySelector('main')!.parentElement!;
    scroller.scrollTop = 600;
    expect(scroller.scrollTop).toBeGreaterThan(0);
    await act(async () => router.navigate('/faq'));
    await expect.poll(() => scroller.scrollTop).toBe(0);
  });
});

describe('the Discord guard', () => {
  test("moves the redirect's code from the real query string into the hash query", () => {
    expect(
      moveCodeIntoHash({ pathname: '/user/loginDiscord', search: '?code=abc', hash: '' }),
    ).toBe('/#/?code=abc');
    expect(
      moveCodeIntoHash({ pathname: '/user/loginDiscord', search: '?code=abc&state=s1', hash: '' }),
    ).toBe('/#/?code=abc&state=s1');
    expect(
      moveCodeIntoHash({ pathname: '/', search: '?code=abc&x=1', hash: '#/detail?mateId=1' }),
    ).toBe('/?x=1#/detail?mateId=1&code=abc');
    expect(moveCodeIntoHash({ pathname: '/', search: '', hash: '#/faq?code=xyz' })).toBeNull();
  });

  test('a code in the hash query signs in through Discord and continues without it', async () => {
    window.sessionStorage.setItem(DISCORD_STATE_KEY, 'tab-state');
    const { services } = await open('/detail?mateId=mate-1&code=xyz&state=tab-state');
    await expect.poll(() => Boolean(services.store.getSnapshot().context.userInfo.uuid)).toBe(true);
    expect(window.location.hash).toBe('#/detail?mateId=mate-1');
  });
});
