// Barge-in (#42): from the person's first sound to the mate's voice stopping, in a real call in
// headless Chromium against the real server (the built app), with the embedded engines (Moonshine
// hears, Flite speaks) and a model double whose replies are long. Chromium's fake microphone
// loops a WAV (a sentence Flite says, then silence) so that the person speaks again while the
// mate is still speaking, round after round. The page measures both ends itself: the sound by a
// Web Audio analyser on the microphone's own stream (the first 5 ms window over −40 dBFS after
// quiet), the voice stopping by the `pause()` of the element playing it. Goal: ≤ 300 ms.
// Prints figures; asserts nothing. Run after `pnpm build`: `pnpm --filter @mates/web bench`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOpenAiDouble } from '../../server/test/openai-double';
import { spokenWav } from '../../server/test/spoken-wav';
import {
  hostedModelEnv,
  launchBrowser,
  personInChat,
  signedInPage,
  startServer,
} from '../../../e2e/harness';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SAID = 'Tell me about the old lighthouse by the sea.';
/** A first sentence long enough (about 9 s spoken) to be playing when the person speaks again. */
const FIRST =
  'The lighthouse has stood on the cliff above the harbour for a hundred years, and every night its keeper climbed the long spiral stairs to light the lamp for the fishing boats.';
const REST =
  ' When the storms came, the waves broke over the gallery, but the light never went out.';

/** What the page saw: a sound's onset, a media element paused or playing, a socket message. */
interface Seen {
  kind: 'sound' | 'pause' | 'playing' | 'out';
  type?: string;
  ms: number;
}

/** Runs in the page before the app: taps the microphone and the media elements. */
function instrument() {
  const seen: Seen[] = [];
  (window as unknown as { bargeLog: Seen[] }).bargeLog = seen;
  const now = () => performance.now();
  const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const stream = await getUserMedia(constraints);
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 256;
    context.createMediaStreamSource(stream.clone()).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    // An onset: over −40 dBFS after 300 ms under −50 (not a dip between two words).
    let quietSince: number | null = now();
    setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let power = 0;
      for (const sample of samples) power += sample * sample;
      const db = 10 * Math.log10(power / samples.length + 1e-12);
      if (db < -50) quietSince ??= now();
      else if (db > -40) {
        if (quietSince !== null && now() - quietSince >= 300)
          seen.push({ kind: 'sound', ms: now() });
        quietSince = null;
      }
    }, 5);
    return stream;
  };
  const pause = HTMLMediaElement.prototype.pause;
  HTMLMediaElement.prototype.pause = function (this: HTMLMediaElement) {
    if (!this.paused) seen.push({ kind: 'pause', ms: now() });
    pause.call(this);
  };
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    const playing = play.call(this);
    void playing.then(
      () => seen.push({ kind: 'playing', ms: now() }),
      () => {},
    );
    return playing;
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    override send(data: Parameters<WebSocket['send']>[0]) {
      if (this.url.includes('/call/socket') && typeof data === 'string')
        seen.push({ kind: 'out', type: (JSON.parse(data) as { type: string }).type, ms: now() });
      super.send(data);
    }
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-barge-in-'));
const wav = path.join(dir, 'person.wav');
// The sentence (about 2.5 s), then 4 s of silence: the next onset comes while the mate's long
// first sentence plays.
fs.writeFileSync(wav, await spokenWav([1, SAID, 4]));
const model = await startOpenAiDouble();
model.route(() => ({ kind: 'stream', pieces: [FIRST, ...REST.split(/(?= )/)], delayMs: 400 }));
const server = await startServer({
  ...hostedModelEnv(model),
  WELCOME_CHATS: '200',
  SPEECH_COST: '1',
  SPEECH_THREADS: '1',
});
const browser = await launchBrowser([
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  `--use-file-for-fake-audio-capture=${wav}`,
]);
try {
  const { user, room } = await personInChat(server, 'barge-in');
  const page = await signedInPage(browser, server, user);
  // tsx (esbuild) names functions with a `__name` helper the page does not have.
  await page.addInitScript('window.__name = (f) => f');
  await page.addInitScript(instrument);
  await page.goto(`${server.url}/#/chat-detail?roomId=${room.roomId}`);
  await page.getByRole('button', { name: 'Call Kai Tanaka' }).click();
  const dialog = page.getByRole('dialog', { name: 'Call with Kai Tanaka' });
  await dialog.getByRole('button', { name: 'Start call' }).click();
  const log = () => page.evaluate(() => (window as unknown as { bargeLog: Seen[] }).bargeLog);
  const deadline = Date.now() + ROUNDS * 20_000 + 60_000;
  while (
    (await log()).filter((seen) => seen.kind === 'out' && seen.type === 'barge-in').length <
      ROUNDS &&
    Date.now() < deadline
  )
    await new Promise((resolve) => setTimeout(resolve, 1000));
  await dialog.getByRole('button', { name: 'Hang up' }).click();

  // Each barge-in: the last onset of sound before it, and the pause of the voice it caused.
  const seen = await log();
  const counts: Record<string, number> = {};
  for (const entry of seen)
    counts[entry.type ?? entry.kind] = (counts[entry.type ?? entry.kind] ?? 0) + 1;
  console.log('seen in the page:', JSON.stringify(counts));
  const latencies: number[] = [];
  const detections: number[] = [];
  for (const [index, entry] of seen.entries()) {
    if (entry.kind !== 'out' || entry.type !== 'barge-in') continue;
    const before = seen.slice(0, index);
    const onset = before.findLast((item) => item.kind === 'sound');
    const stopped = before.findLast((item) => item.kind === 'pause');
    if (!onset || !stopped || stopped.ms < onset.ms) continue;
    latencies.push(stopped.ms - onset.ms);
    detections.push(entry.ms - onset.ms);
  }
  const row = {
    engines: 'embedded Moonshine + Flite, Silero VAD',
    bargeIns: latencies.length,
    soundToVoiceStoppedP50Ms: Math.round(percentile(latencies, 50)),
    soundToVoiceStoppedP95Ms: Math.round(percentile(latencies, 95)),
    soundToVoiceStoppedMaxMs: Math.round(Math.max(...latencies)),
    soundToBargeInSentP50Ms: Math.round(percentile(detections, 50)),
    goalMs: 300,
    met: percentile(latencies, 50) <= 300 ? 'yes (p50)' : 'no',
  };
  console.log('\nBarge-in: the person’s first sound → the mate’s voice stopped, in Chromium');
  console.table([row]);
  await page.context().close();
} finally {
  await browser.close();
  await server.stop();
  await model.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
