// A voice call, mouth to ear (#42): from the end of the person's utterance (its WAV sent on the
// call's socket) to the first audio frame of the reply, through the server's real routes and
// socket; the model is the OpenAI-compatible double answering at once. First with the embedded
// engines only (Moonshine hears a sentence Flite spoke, Flite speaks the reply), then with
// speech to text as the OpenAI-compatible engine against its double (test/speech-doubles.ts,
// the real wire format, answering at once) and the embedded Flite, then both OpenAI-compatible. Parts, measured at the browser's
// end: the transcript back (transcription and the message saved), the first words of the reply
// (the model's first token), and the first sentence's audio (its synthesis).
import WebSocket from 'ws';
import type { CallServerMessage, CallTicket } from '@mates/api-client';
import { chattableMateId, doubleModel, signUp, startTestServer } from '../test/harness';
import { startOpenAiDouble } from '../test/openai-double';
import { makeWav, startSpeechDouble } from '../test/speech-doubles';
import { spokenWav } from '../test/spoken-wav';
import { saveResults, type ResultRow } from './results';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const REPLY = [
  'The harbour is quiet tonight. ',
  'I counted thirty-six boats, ',
  'and one of them is yours. ',
  'Tell me where you sailed from.',
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** One pair of engines' run: `ROUNDS` turns of one call, each timed from the utterance sent. */
async function run(engine: 'embedded' | 'openai', ear: 'embedded' | 'openai'): Promise<ResultRow> {
  const model = await startOpenAiDouble();
  const ears = await startSpeechDouble({ transcript: 'Tell me about the harbour.', parts: 1 });
  model.route(() => ({ kind: 'stream', pieces: REPLY }));
  const server = await startTestServer('sqlite', {
    model: doubleModel(model),
    env: {
      ...(ear === 'openai'
        ? { TRANSCRIBE_PROVIDER: 'openai', TRANSCRIBE_BASE_URL: `${ears.url}/v1` }
        : { TRANSCRIBE_PROVIDER: 'embedded' }),
      ...(engine === 'openai'
        ? {
            SPEECH_PROVIDER: 'openai',
            SPEECH_BASE_URL: `${ears.url}/v1`,
            SPEECH_MODEL: 'tts-1',
            SPEECH_VOICES: 'alloy',
          }
        : {}),
    },
  });
  try {
    const { userInfo, client } = await signUp(server);
    await server.db
      .updateTable('benefits')
      .set({ chats: 10_000 })
      .where('user_id', '=', userInfo.uuid)
      .execute();
    const room = await client.room.createRoom({ mateId: await chattableMateId(server.db) });
    const started = await fetch(`${server.base}/api/call/start`, {
      method: 'POST',
      headers: { token: userInfo.token, 'content-type': 'application/json' },
      body: JSON.stringify({ roomId: room.roomId }),
    });
    const ticket = ((await started.json()) as { d: CallTicket }).d;
    const socket = new WebSocket(`${server.base.replace(/^http/, 'ws')}${ticket.socketPath}`);
    let onEvent: (type: string) => void = () => {};
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return onEvent('audio');
      const message = JSON.parse(data.toString()) as CallServerMessage;
      if (message.type === 'transcript') heard = message.text;
      onEvent(message.type);
    });
    await new Promise<void>((resolve) => (onEvent = (type) => type === 'ready' && resolve()));
    const utterance =
      ear === 'embedded'
        ? await spokenWav([0.3, 'Tell me about the harbour.', 0.3], 16_000)
        : makeWav(2, 16_000);
    let heard = '';
    const parts = { transcript: [] as number[], token: [] as number[], audio: [] as number[] };
    // One turn first, not counted: the engines' processes and the code paths warm.
    for (let round = -1; round < ROUNDS; round += 1) {
      const at: Record<string, number> = {};
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        onEvent = (type) => {
          at[type] ??= performance.now() - t0;
          if (type === 'reply-end') resolve();
        };
        socket.send(utterance);
      });
      if (round < 0) continue;
      parts.transcript.push(at.transcript!);
      parts.token.push(at['reply-text']!);
      parts.audio.push(at.audio!);
    }
    socket.send(JSON.stringify({ type: 'hang-up' }));
    const p50 = (values: number[]) => Math.round(percentile(values, 50));
    return {
      speech: engine === 'embedded' ? 'embedded Flite' : 'OpenAI-compatible double',
      transcription: ear === 'embedded' ? 'embedded Moonshine' : 'OpenAI-compatible double',
      heard,
      rounds: ROUNDS,
      mouthToEarP50Ms: p50(parts.audio),
      mouthToEarP95Ms: Math.round(percentile(parts.audio, 95)),
      transcriptP50Ms: p50(parts.transcript),
      firstTokenP50Ms: p50(parts.token),
      firstSentenceSynthesisP50Ms: p50(parts.audio.map((audio, i) => audio - parts.token[i]!)),
    };
  } finally {
    await server.close();
    await model.close();
    await ears.close();
  }
}

const rows = [
  await run('embedded', 'embedded'),
  await run('embedded', 'openai'),
  await run('openai', 'openai'),
];
console.log(
  '\nVoice call, mouth to ear (end of the utterance → first audio frame of the reply), ms',
);
console.table(rows);
saveResults('call', rows);
process.exit(0);
