import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startOpenAiDouble, type Behaviour } from '../apps/server/test/openai-double';
import { startSpeechDouble } from '../apps/server/test/speech-doubles';
import { spokenWav } from '../apps/server/test/spoken-wav';
import {
  hostedModelEnv,
  launchBrowser,
  personInChat,
  signedInPage,
  startServer,
  type E2eServer,
} from './harness';

// A voice call as a person has it (#42), in Chromium with a fake microphone: it plays a WAV file
// in a loop (Flite saying one sentence between silences), so the person says the sentence, then
// says it again some seconds later — while the mate is still answering: a barge-in. Speech to
// text is an OpenAI-compatible double (it always hears SAID), the reply a model double that
// writes slowly, the mate's voice the embedded Flite engine.

const SAID = 'Tell me about the old lighthouse by the sea.';
const FIRST = 'The lighthouse has stood on the cliff for a hundred years.';
/** The first reply: its first sentence at once, then many words slowly (about 20 s in all). */
const LONG: string[] = [
  FIRST,
  ...' Every night the keeper climbed its stairs and lit the lamp, and the ships far out at sea saw it and kept away from the rocks. When the storms came, the waves broke over the gallery and the glass shook in its frame, but the light never went out.'.split(
    /(?= )/,
  ),
];
const LAST_WORDS = 'the light never went out.';
const SECOND = 'All right, I am listening.';

/** Answers the mate's replies: the first turn slowly and at length, the next one briefly. */
function answer(body: Record<string, unknown>): Behaviour | undefined {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1);
  if (last?.role !== 'user' || typeof last.content !== 'string' || !last.content.includes(SAID))
    return undefined;
  const turns = messages.filter(
    (message) => message.role === 'user' && String(message.content).includes(SAID),
  ).length;
  return turns === 1
    ? { kind: 'stream', pieces: LONG, delayMs: 350 }
    : { kind: 'stream', pieces: ['All right,', ' I am listening.'], delayMs: 20 };
}

/** What the page's instrumentation saw, in order (`ms`: when, only to read a failure by). */
interface Seen {
  /** A socket message received or sent, a media element's play, a status said. */
  kind: 'in' | 'out' | 'media' | 'status';
  type?: string;
  messageId?: string;
  cut?: boolean;
  text?: string;
  heard?: number;
  ms: number;
}

/**
 * Records, in one ordered list (`window.callLog`), every message of the call's socket both
 * ways, every play of a media element (and when it began playing), and each text the call's polite status says.
 */
function instrument() {
  const seen: unknown[] = [];
  // Each entry carries its time (ms) only to read a failure's log by: the test asserts order.
  const log = {
    push: (entry: object) => seen.push({ ...entry, ms: Math.round(performance.now()) }),
  };
  (window as unknown as { callLog: unknown[] }).callLog = seen;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      if (!String(url).includes('/call/socket')) return;
      this.addEventListener('message', (event: MessageEvent) => {
        if (typeof event.data !== 'string') return log.push({ kind: 'in', type: 'audio' });
        const message = JSON.parse(event.data) as Record<string, unknown>;
        log.push({
          kind: 'in',
          type: message.type,
          messageId: message.messageId,
          cut: message.cut,
          text: message.text,
        });
      });
    }
    override send(data: Parameters<WebSocket['send']>[0]) {
      if (this.url.includes('/call/socket')) {
        if (typeof data === 'string') {
          const message = JSON.parse(data) as Record<string, unknown>;
          log.push({ kind: 'out', type: message.type, heard: message.heard });
        } else log.push({ kind: 'out', type: 'utterance' });
      }
      super.send(data);
    }
  };
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    log.push({ kind: 'media', type: 'play' });
    const playing = play.call(this);
    void playing.then(
      () => log.push({ kind: 'media', type: 'playing' }),
      () => {},
    );
    return playing;
  };
  let said = '';
  new MutationObserver(() => {
    const text = document.querySelector('[role="dialog"] [role="status"]')?.textContent ?? '';
    if (text && text !== said) log.push({ kind: 'status', text });
    said = text;
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

const callLog = (page: Page) =>
  page.evaluate(() => (window as unknown as { callLog: Seen[] }).callLog);

let browser: Browser;
let server: E2eServer;
let model: Awaited<ReturnType<typeof startOpenAiDouble>>;
let speech: Awaited<ReturnType<typeof startSpeechDouble>>;
let wavDir: string;
beforeAll(async () => {
  // One second of silence, the sentence, then ten: looped, the sentence comes again about
  // eleven seconds after it ended — seconds after the reply's first sentence began to play
  // (under 2.5 s after the transcript on a busy 2-core machine, the voice's worker warm), and
  // long before the reply is written (some 20 s).
  wavDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-call-'));
  const wav = path.join(wavDir, 'person.wav');
  fs.writeFileSync(wav, await spokenWav([1, SAID, 10]));
  browser = await launchBrowser([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${wav}`,
  ]);
  model = await startOpenAiDouble();
  model.route(answer);
  speech = await startSpeechDouble({ transcript: SAID });
  server = await startServer({
    ...hostedModelEnv(model),
    WELCOME_CHATS: '50',
    SPEECH_COST: '1',
    // One worker process for the embedded voice, started before the call (below).
    SPEECH_THREADS: '1',
    TRANSCRIBE_PROVIDER: 'openai',
    TRANSCRIBE_BASE_URL: `${speech.url}/v1`,
    TRANSCRIBE_API_KEY: 'sk-e2e',
  });
});
afterAll(async () => {
  await server?.stop();
  await model?.close();
  await speech?.close();
  await browser?.close();
  if (wavDir) fs.rmSync(wavDir, { recursive: true, force: true });
});

describe('calling a mate', () => {
  test('speak, hear the first sentence before the reply is done, interrupt, hang up: the chat keeps it', async () => {
    const { user, client, room } = await personInChat(server, 'caller');
    const page = await signedInPage(browser, server, user);
    await page.addInitScript(instrument);
    await page.goto(`${server.url}/#/chat-detail?roomId=${room.roomId}`);
    const conversation = page.getByRole('log', { name: 'Conversation' });
    await conversation.locator('[aria-label="Kai Tanaka says"]').first().waitFor();
    // The greeting heard once, as a server that has spoken before: the voice's worker process
    // is started, so the call's first sentence is not also waiting for a process to start
    // (seconds on a busy machine, which the loop's timing would have to allow for).
    const [greeting] = (await client.room.roomInfo({ roomId: room.roomId })).messages;
    const clip = await client.speech.link({ messageId: greeting!.messageId });
    const heardGreeting = await fetch(new URL(clip.url, server.url));
    expect(heardGreeting.status).toBe(200);
    expect((await heardGreeting.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    // Call → the price → Start call.
    await page.getByRole('button', { name: 'Call Kai Tanaka' }).click();
    const dialog = page.getByRole('dialog', { name: 'Call with Kai Tanaka' });
    await dialog.getByText('Each reply in a call costs 1 chat').waitFor();
    await dialog.getByRole('button', { name: 'Start call' }).click();

    // The person's words, transcribed by the server, in the captions.
    const captions = dialog.getByRole('log', { name: 'Live captions' });
    await captions.getByText(SAID).first().waitFor({ timeout: 30_000 });
    // The mate's first sentence is captioned and played; the person speaks again over the rest.
    await expect
      .poll(async () => (await callLog(page)).some((seen) => seen.type === 'barge-in'), {
        timeout: 45_000,
      })
      .toBe(true);
    // The next turn (the words said over the reply) is answered in full; the person hangs up
    // then (its reply written whole: the hang-up does not cut it), before the loop speaks again.
    await expect
      .poll(
        async () =>
          (await callLog(page)).filter((seen) => seen.kind === 'in' && seen.type === 'reply-end')
            .length,
        { timeout: 45_000 },
      )
      .toBe(2);
    await dialog.getByRole('button', { name: 'Hang up' }).click();
    await dialog.getByRole('status').getByText('Call ended').waitFor();

    // In order: the transcript; the reply started, its first sentence's audio played while the
    // mate was said to speak; the barge-in while it still was (one sentence begun at least:
    // its clip playing or over, the next not written yet); only then the reply's end, cut.
    const log = await callLog(page);
    const at = (find: (seen: Seen) => boolean, from = 0) => {
      const index = log.findIndex((seen, i) => i >= from && find(seen));
      expect(index, JSON.stringify(log, null, 1)).toBeGreaterThanOrEqual(0);
      return index;
    };
    const transcript = at((seen) => seen.kind === 'in' && seen.type === 'transcript');
    const start = at((seen) => seen.kind === 'in' && seen.type === 'reply-start', transcript);
    const sentence = at((seen) => seen.kind === 'in' && seen.type === 'sentence', start);
    const playing = at((seen) => seen.kind === 'media' && seen.type === 'playing', sentence);
    const speaking = at(
      (seen) => seen.kind === 'status' && seen.text === 'Kai Tanaka is speaking',
      sentence,
    );
    const bargeIn = at((seen) => seen.kind === 'out' && seen.type === 'barge-in', playing);
    const statuses = log.slice(0, bargeIn).filter((seen) => seen.kind === 'status');
    expect(statuses.at(-1)).toMatchObject({ text: 'Kai Tanaka is speaking' });
    const end = at((seen) => seen.kind === 'in' && seen.type === 'reply-end', start);
    expect(playing).toBeLessThan(end);
    expect(speaking).toBeLessThan(end);
    expect(bargeIn).toBeLessThan(end);
    const cutEnd = log[end]!;
    expect(cutEnd.cut).toBe(true);
    const heard = log[bargeIn]!.heard!;
    expect(heard).toBeGreaterThanOrEqual(1);
    // What was kept is what was heard: the first sentence, not the end of the reply.
    expect(cutEnd.text).toContain(FIRST);
    expect(cutEnd.text).not.toContain(LAST_WORDS);
    // The words said over the reply are the next turn, answered.
    at((seen) => seen.kind === 'in' && seen.type === 'transcript', bargeIn);
    expect(log.filter((seen) => seen.kind === 'out' && seen.type === 'hang-up')).toHaveLength(1);
    expect(log.filter((seen) => seen.kind === 'out' && seen.type === 'utterance')).toHaveLength(2);
    // The captions mark the cut reply.
    await captions.getByText('(cut)').waitFor();

    // The chat holds both turns: the person's words, the cut reply marked, the next turn.
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect.poll(() => conversation.getByRole('article').count(), { timeout: 15_000 }).toBe(5);
    const articles = await conversation.getByRole('article').all();
    const texts = await Promise.all(articles.map((article) => article.innerText()));
    expect(texts[1]).toContain(SAID);
    expect(texts[2]).toContain(FIRST);
    expect(texts[2]).not.toContain(LAST_WORDS);
    expect(texts[2]).toContain('Cut short in a call');
    expect(texts[3]).toContain(SAID);
    expect(texts[4]).toContain(SECOND);
    expect(texts[4]).not.toContain('Cut short in a call');
    expect(await articles[2]!.getAttribute('aria-label')).toBe('Kai Tanaka says');

    // The server kept the same: both messages of the person and both replies, in the call.
    const messages = (await client.room.roomInfo({ roomId: room.roomId })).messages.slice(1);
    expect(messages.map((message) => [message.role, message.call?.cut ?? null])).toEqual([
      ['user', false],
      ['mate', true],
      ['user', false],
      ['mate', false],
    ]);
    // Each utterance reached the transcription double as a WAV.
    const heardFiles = speech.requests.filter((request) => request.form?.file);
    expect(heardFiles).toHaveLength(2);
    expect(heardFiles[0]!.form!.file!.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    await page.context().close();
  });
});
