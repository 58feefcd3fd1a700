import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium';
import { listenPort } from '../scripts/listen-port';
import { OUT, ROOT } from './static-storybook.setup';

// The static Storybook as a designer opens it: the manager (sidebar, toolbar, addon panels) with
// the story in its frame, every entry in turn. The story tests render stories without the manager
// and without the docs addon, so a story that freezes or breaks only here passed them.

/**
 * How long a page may take to answer a round trip (an animation frame) before it counts as
 * frozen. A guard against a hang, not a speed check: a frozen page never answers, and the
 * freezes this test was written for lasted from 5 s to over a minute.
 */
const ANSWER_GUARD_MS = 15_000;

/** How long an entry may take to render and run its `play` before it counts as stuck. */
const RENDER_GUARD_MS = 90_000;

/**
 * How long one try at an entry may take in all (moving there, drawing, the checks): past it,
 * the try counts as failed and the entry is opened once more in a new tab.
 */
const TRY_GUARD_MS = RENDER_GUARD_MS + 4 * ANSWER_GUARD_MS;

/**
 * What every address the check opens adds to the entry's path: the accessibility addon's checks
 * are run by hand (its panel's button), not by the addon as each entry is drawn. The story tests
 * run axe on every story already, and here it was a third of the check's time (48 chat screens,
 * two at a time: 234 s with it, 151 s without), in a CI asked to stay near 30 minutes.
 */
const ADDRESS_GLOBALS = '&globals=a11y.manual:!true';

/** How many entries one tab shows before a new tab takes over (see `openManager`). */
const TAB_ENTRIES = 60;

interface Entry {
  id: string;
  type: 'story' | 'docs';
}

/** Every entry of the static build (built by `static-storybook.setup.ts` before the tests). */
function allEntries(): Entry[] {
  return Object.values(
    (
      JSON.parse(fs.readFileSync(path.join(OUT, 'index.json'), 'utf8')) as {
        entries: Record<string, Entry>;
      }
    ).entries,
  ).map(({ id, type }) => ({ id, type }));
}

/** Resolves with `promise`, or with `'no answer'` when it takes longer than `ms`. */
function within<T>(ms: number, promise: Promise<T>): Promise<T | 'no answer'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'no answer'>((resolve) => {
    timer = setTimeout(() => resolve('no answer'), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** One animation frame in `target`, answered: the page's main thread is free. */
function roundTrip(target: Page | Frame): Promise<string> {
  return target.evaluate(() => new Promise<string>((r) => requestAnimationFrame(() => r('ok'))));
}

/**
 * Declares the check of one share of the entries: every `shares`-th entry from the `share`-th
 * (counted from 0), so that each share holds screens and kit stories alike. Each share runs in
 * its own test file, and so in its own worker, browser and tab, beside the others.
 */
export function checkStaticStorybook(share: number, shares: number): void {
  const entries = allEntries().filter((_, index) => index % shares === share);
  describe(`the static Storybook, every entry opened in the manager (share ${share + 1} of ${shares})`, () => {
    let server: PreviewServer;
    let browser: Browser;
    let page: Page;
    let crashed = false;
    let baseUrl = '';
    let shownInTab = 0;
    const pageErrors: string[] = [];

    /**
     * The story's frame in the manager, once the manager has drawn it: a tab just opened, or a
     * manager changing its layout (a story for a phone), shows it a moment later.
     */
    const previewFrame = async () => {
      const element = await within(
        ANSWER_GUARD_MS,
        page.waitForSelector('iframe#storybook-preview-iframe', { state: 'attached', timeout: 0 }),
      );
      const frame = element === 'no answer' ? null : await element.contentFrame();
      if (!frame) throw new Error('the manager has no preview frame');
      return frame;
    };

    beforeAll(async () => {
      const port = await listenPort();
      server = await preview({
        configFile: false,
        root: ROOT,
        logLevel: 'error',
        build: { outDir: OUT },
        preview: { port, host: '127.0.0.1', strictPort: true, open: false },
      });
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      baseUrl = `http://127.0.0.1:${port}`;
      await openManager();
    }, 120_000);

    /**
     * A new tab on the manager, as a designer opens one. A tab that has shown a few dozen entries
     * is replaced too: run beside the other test projects on a loaded 2-core machine, one tab
     * stopped answering after some 300 entries and every entry after it failed, though each of
     * them passed in a fresh tab.
     */
    async function openManager() {
      await page?.close().catch(() => {});
      crashed = false;
      shownInTab = 0;
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      // Every call into the tab has an end (Playwright's default is none for some of them).
      page.setDefaultTimeout(4 * ANSWER_GUARD_MS);
      page.on('crash', () => (crashed = true));
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (/Maximum call stack/.test(message.text())) pageErrors.push(message.text());
      });
      // The preview tells the manager when an entry is drawn, on the channel it keeps in a global:
      // take note of it in every frame, from the moment the channel is made.
      await page.addInitScript(() => {
        const view = window as unknown as { drawn: Set<string> };
        view.drawn = new Set();
        let channel: unknown;
        Object.defineProperty(window, '__STORYBOOK_ADDONS_CHANNEL__', {
          configurable: true,
          get: () => channel,
          set: (next: {
            on: (event: string, listener: (id: string) => void) => void;
            emit: (event: string, ...args: unknown[]) => void;
          }) => {
            channel = next;
            // The check moves on while a story's `play` may still be pressing keys (below).
            // Storybook stops passing the preview's keys to the manager while a `play` runs, but
            // once the next entry is drawn, the keys of the `play` left behind would reach the
            // manager as its shortcuts (",", for one, leaves the story view for the about page).
            // A designer's keys are not a `play`'s: the preview keeps them to itself here.
            if (window !== window.top) {
              const emit = next.emit.bind(next);
              next.emit = (event, ...args) => {
                if (event !== 'previewKeydown') emit(event, ...args);
              };
            }
            next.on('docsRendered', (id: string) => view.drawn.add(id));
            // A story counts as drawn once it is on screen and its `play` has begun: what froze
            // the page (the docs addon's source snippet) runs as the story is drawn, and the
            // story tests already run every `play` to its end. Waiting for each `play` here made
            // the check some 40 minutes long; moving on stops it, as a designer clicking on does.
            next.on('storyRenderPhaseChanged', (({
              newPhase,
              storyId,
            }: {
              newPhase: string;
              storyId: string;
            }) => {
              if (['playing', 'played', 'completed', 'finished'].includes(newPhase))
                view.drawn.add(storyId);
            }) as unknown as (id: string) => void);
          },
        });
      });
      // Opens on the last entry, so that the first test moves to another one, as every test does.
      const last = entries.at(-1)!;
      await page.goto(`${baseUrl}/?path=/${last.type}/${last.id}${ADDRESS_GLOBALS}`);
    }

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    test.each(entries)('$type $id opens and the page answers', async ({ id, type }) => {
      if (crashed || shownInTab >= TAB_ENTRIES) await openManager();
      shownInTab += 1;
      // One try, bounded as a whole: a call into a tab that stopped answering would wait forever.
      const tryEntry = async () => {
        const outcome = await within(
          TRY_GUARD_MS,
          openEntry(id, type).then(() => 'opened'),
        );
        if (outcome === 'no answer') throw new Error('the entry did not finish opening');
      };
      try {
        await tryEntry();
      } catch (error) {
        // What the entry itself showed is never tried again: an error screen, an uncaught error
        // or a crashed tab fails at once, however rarely it happens.
        if (/no error screen|no uncaught error|the tab is alive/.test(String(error))) {
          await openManager();
          throw error;
        }
        // The story's frame was loaded anew while it was read (a navigation the previous
        // entry's `play` left behind), or the tab stopped answering: open the entry once more,
        // in the new frame or a new tab. A second failure counts, so a story that freezes the
        // page itself fails; the entries after it start from a new tab.
        if (!/Execution context was destroyed|frame was detached/.test(String(error)))
          await openManager();
        try {
          await tryEntry();
        } catch (again) {
          await openManager();
          throw again;
        }
      }
    });

    async function openEntry(id: string, type: Entry['type']) {
      pageErrors.length = 0;
      // As the sidebar does: the manager's router takes the new address.
      const moved = await within(
        ANSWER_GUARD_MS,
        page.evaluate((to) => {
          history.pushState(null, '', `?path=${to}`);
          dispatchEvent(new PopStateEvent('popstate'));
        }, `/${type}/${id}${ADDRESS_GLOBALS}`),
      );
      expect(moved, 'the manager answers').not.toBe('no answer');
      const frame = await previewFrame();
      const ended = await within(
        RENDER_GUARD_MS,
        frame.waitForFunction(
          (entryId) => {
            const view = window as unknown as {
              drawn: Set<string>;
              __STORYBOOK_PREVIEW__?: { currentRender?: { id: string } };
            };
            const shown = document.body.classList;
            const current = view.__STORYBOOK_PREVIEW__?.currentRender?.id === entryId;
            return (
              view.drawn.has(entryId) ||
              (current &&
                (shown.contains('sb-show-errordisplay') || shown.contains('sb-show-nopreview')))
            );
          },
          id,
          { polling: 100, timeout: 0 },
        ),
      );
      expect(ended, 'the entry finishes drawing').not.toBe('no answer');
      expect(await within(ANSWER_GUARD_MS, roundTrip(page)), 'the manager answers').toBe('ok');
      expect(await within(ANSWER_GUARD_MS, roundTrip(frame)), 'the preview answers').toBe('ok');
      const error = await frame.evaluate(() =>
        document.body.classList.contains('sb-show-errordisplay') ||
        document.body.classList.contains('sb-show-nopreview')
          ? (document.querySelector('#error-message')?.textContent ?? 'an error screen')
          : null,
      );
      expect(error, 'no error screen').toBeNull();
      expect(pageErrors, 'no uncaught error').toEqual([]);
      expect(crashed, 'the tab is alive').toBe(false);
    }
  });
}
