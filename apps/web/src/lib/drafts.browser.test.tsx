import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DRAFT_CHARS_KEPT,
  DRAFTS_KEPT,
  DRAFTS_KEY,
  forgetDraft,
  forgetDrafts,
  readDraft,
  withUnsent,
  withoutUnsent,
  writeDraft,
} from './drafts';
import { entryScriptsOf, reloadForNewVersion } from './new-version';

afterEach(() => localStorage.clear());

const typed = (text: string) => ({ text, sending: null });

describe('drafts', () => {
  it('keeps each room’s box apart, and forgets one left empty', () => {
    writeDraft(localStorage, 'room-a', typed('Half a thought about the lighthouse'));
    writeDraft(localStorage, 'room-b', typed('Another room'));
    expect(readDraft(localStorage, 'room-a')).toEqual(typed('Half a thought about the lighthouse'));
    expect(readDraft(localStorage, 'room-b').text).toBe('Another room');
    expect(readDraft(localStorage, 'room-c')).toEqual(typed(''));
    writeDraft(localStorage, 'room-a', typed(''));
    expect(readDraft(localStorage, 'room-a')).toEqual(typed(''));
    expect(readDraft(localStorage, 'room-b').text).toBe('Another room');
    forgetDraft(localStorage, 'room-b');
    expect(localStorage.getItem(DRAFTS_KEY)).toBe('');
  });

  it('keeps a message being sent beside what is typed since, until both are gone', () => {
    writeDraft(localStorage, 'room-a', { text: 'Second', sending: 'First, queued' });
    expect(readDraft(localStorage, 'room-a')).toEqual({ text: 'Second', sending: 'First, queued' });
    writeDraft(localStorage, 'room-a', { text: '', sending: 'First, queued' });
    expect(readDraft(localStorage, 'room-a')).toEqual({ text: '', sending: 'First, queued' });
    writeDraft(localStorage, 'room-a', { text: '', sending: null });
    expect(localStorage.getItem(DRAFTS_KEY)).toBe('');
  });

  it('gives a message back before what was typed since, once', () => {
    expect(withUnsent('First', '')).toBe('First');
    expect(withUnsent('First', 'Second')).toBe('First\n\nSecond');
    expect(withUnsent('First', 'First\n\nSecond')).toBe('First\n\nSecond');
  });

  it('takes a message given back out of the box again, unless the person changed it there', () => {
    expect(withoutUnsent('First', 'First')).toBe('');
    expect(withoutUnsent('First', 'First\n\nSecond')).toBe('Second');
    expect(withoutUnsent('First', 'First, changed\n\nSecond')).toBe('First, changed\n\nSecond');
    expect(withoutUnsent('First', 'Second')).toBe('Second');
  });

  it(`keeps the ${DRAFTS_KEPT} written last, and ${DRAFT_CHARS_KEPT} characters of each`, () => {
    for (let index = 0; index <= DRAFTS_KEPT; index += 1)
      writeDraft(localStorage, `room-${index}`, typed(`draft ${index}`), 1_000 + index);
    expect(readDraft(localStorage, 'room-0').text).toBe('');
    expect(readDraft(localStorage, 'room-1').text).toBe('draft 1');
    expect(readDraft(localStorage, `room-${DRAFTS_KEPT}`).text).toBe(`draft ${DRAFTS_KEPT}`);
    writeDraft(localStorage, 'room-1', typed('x'.repeat(DRAFT_CHARS_KEPT * 10)));
    expect(readDraft(localStorage, 'room-1').text).toHaveLength(DRAFT_CHARS_KEPT);
  });

  it('reads a copy it cannot understand as none, and goes on writing', () => {
    localStorage.setItem(DRAFTS_KEY, '{broken');
    expect(readDraft(localStorage, 'room-a')).toEqual(typed(''));
    localStorage.setItem(DRAFTS_KEY, JSON.stringify({ 'room-a': 'not a draft', 'room-b': null }));
    expect(readDraft(localStorage, 'room-a')).toEqual(typed(''));
    writeDraft(localStorage, 'room-b', typed('Fine again'));
    expect(readDraft(localStorage, 'room-b').text).toBe('Fine again');
  });

  it('keeps nothing, and throws nothing, where storage refuses to write', () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() => writeDraft(full, 'room-a', typed('text'))).not.toThrow();
    expect(() => forgetDrafts(full)).not.toThrow();
  });

  it('forgets every room’s when the person signs out', () => {
    writeDraft(localStorage, 'room-a', typed('one'));
    writeDraft(localStorage, 'room-b', { text: '', sending: 'two' });
    forgetDrafts(localStorage);
    expect(readDraft(localStorage, 'room-a')).toEqual(typed(''));
    expect(readDraft(localStorage, 'room-b')).toEqual(typed(''));
  });
});

describe('reloadForNewVersion', () => {
  const page = (...scripts: string[]) =>
    `<!doctype html><html><head><title>Mates</title>${scripts
      .map((src) => `<script type="module" crossorigin src="${src}"></script>`)
      .join('')}</head><body></body></html>`;
  const OLD = page('/assets/rolldown-runtime-A.js', '/assets/first-screen-A.js');
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('reads the module scripts a page starts with', () => {
    expect(entryScriptsOf(OLD)).toBe('/assets/rolldown-runtime-A.js /assets/first-screen-A.js');
    // The page's own head as the browser serializes it (`crossorigin=""`) reads the same.
    const head = document.createElement('head');
    head.innerHTML = OLD.slice(OLD.indexOf('<script'), OLD.indexOf('</head>'));
    expect(head.outerHTML).toContain('crossorigin=""');
    expect(entryScriptsOf(head.outerHTML)).toBe(entryScriptsOf(OLD));
    expect(entryScriptsOf('<script src="/classic.js"></script>')).toBe('');
  });

  it('reloads when a piece of code is gone and the server serves another version', async () => {
    const target = new EventTarget();
    const reload = vi.fn();
    const served = vi.fn(async () =>
      page('/assets/rolldown-runtime-A.js', '/assets/first-screen-B.js'),
    );
    reloadForNewVersion(target as unknown as Window, {
      entry: entryScriptsOf(OLD),
      fetchPage: served,
      reload,
    });
    target.dispatchEvent(new Event('vite:preloadError'));
    // Several pieces failing at once ask the server once.
    target.dispatchEvent(new Event('vite:preloadError'));
    await settle();
    expect(served).toHaveBeenCalledOnce();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('does not reload offline, nor on the same version (no loop, however slow)', async () => {
    const target = new EventTarget();
    const reload = vi.fn();
    let answer: () => Promise<string> = async () => {
      throw new TypeError('Failed to fetch');
    };
    reloadForNewVersion(target as unknown as Window, {
      entry: entryScriptsOf(OLD),
      fetchPage: () => answer(),
      reload,
    });
    target.dispatchEvent(new Event('vite:preloadError'));
    await settle();
    answer = async () => OLD;
    target.dispatchEvent(new Event('vite:preloadError'));
    await settle();
    // A page that is not the app's (a proxy's error page) is no version either.
    answer = async () => '<html><body>Bad gateway</body></html>';
    target.dispatchEvent(new Event('vite:preloadError'));
    await settle();
    expect(reload).not.toHaveBeenCalled();
  });
});
