import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ChatStreamEvent } from '@mates/api-client';
import type { LanguageModel } from '../src/llm/language-model';
import {
  DIALECTS,
  postgresAvailable,
  seededMate,
  signUp,
  startTestServer,
  unconfiguredModel,
} from './harness';

// A full disk while a reply is saved is said as a full disk (5007's sentence), in the reader's
// language, not as "The reply could not be saved", which reads as a fault of this server.
const withPostgres = await postgresAvailable();
type Server = Awaited<ReturnType<typeof startTestServer>>;

const FULL = {
  en: 'The server is out of storage space. Please try again later.',
  fr: 'Le serveur n’a plus d’espace de stockage. Réessaie plus tard.',
};

/**
 * A model that writes a first word, waits until the test has filled the disk, then writes a
 * long piece: saving it needs room the database no longer has.
 */
function gatedModel(): LanguageModel & { release: () => void } {
  let release = () => {};
  const gate = () => new Promise<void>((resolve) => (release = resolve));
  let waiting = gate();
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    countTokens: (text) => Math.ceil(text.length / 4),
    release: () => release(),
    async generate(_turns, _options, onText) {
      onText('Hello');
      await waiting;
      waiting = gate();
      onText(` ${'full '.repeat(20_000)}`);
      return { finishReason: 'stop', promptTokens: 1, completionTokens: 2 };
    },
  };
}

/** Makes saving a reply fail as a full disk does; gives back what empties it again. */
async function fillDisk(server: Server, dialect: 'sqlite' | 'postgres') {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(server.db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(server.db);
    return async () => void (await sql`pragma max_page_count = 1073741823`.execute(server.db));
  }
  await sql`create or replace function mates_test_reply_disk_full() returns trigger language plpgsql as $$
    begin
      raise exception 'could not extend file "base/16384/16402": No space left on device'
        using errcode = 'disk_full';
    end $$`.execute(server.db);
  await sql`create trigger reply_disk_full before update on messages
    for each row when (length(new.content) > 1000)
    execute function mates_test_reply_disk_full()`.execute(server.db);
  return async () => void (await sql`drop trigger reply_disk_full on messages`.execute(server.db));
}

describe.each(DIALECTS)('a full disk while a reply is saved, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Server;
  let model: ReturnType<typeof gatedModel>;
  beforeAll(async () => {
    if (skip) return;
    model = gatedModel();
    server = await startTestServer(dialect, { model, saveEveryMs: 60_000 });
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  it.skipIf(skip)('is said as a full disk, in the reader’s language', async () => {
    for (const language of ['en', 'fr'] as const) {
      const { userInfo } = await signUp(server);
      const client = server.client({ token: userInfo.token, language });
      const mate = await seededMate(server.db, 'Kai Tanaka');
      const room = await client.room.createRoom({ mateId: mate.id });
      const events: ChatStreamEvent[] = [];
      let emptyDisk: (() => Promise<void>) | null = null;
      await client.girl.chatSend(
        { roomId: room.roomId, content: 'Hi' },
        {
          onData: (event) => {
            events.push(event);
            // The turn and the reply's row are written once its first word is out.
            if (event.type === 'reply-delta' && !emptyDisk)
              void fillDisk(server, dialect).then((empty) => {
                emptyDisk = empty;
                model.release();
              });
          },
        },
      );
      await (emptyDisk as (() => Promise<void>) | null)?.();
      expect(events.at(-1)).toMatchObject({ type: 'error', message: FULL[language] });
      expect(await server.deps.chat.isBusy(room.roomId)).toBe(false);
    }
  });
});
