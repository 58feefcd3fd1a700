import type { Kysely } from 'kysely';
import type { Database, RoomTable, UserTable } from '../db/schema';
import { buildTurns, type PromptSource } from './prompt';
import type { ChatTurn, LanguageModel } from '../llm/language-model';
import { conversationRows } from './conversation-repository';

/** A conversation read for a prompt, and whether its history goes back to the room's start. */
export type Conversation = Omit<PromptSource, 'language'> & { wholeHistory: boolean };

/**
 * A room's mate, persona and its `recent` newest messages (without the reply being written,
 * `replyId`, if any), for the prompt; see {@link fittingTurns} for how many to ask for.
 */
export async function loadConversation(
  db: Kysely<Database>,
  room: RoomTable,
  user: UserTable,
  replyId: string | null,
  recent: number,
): Promise<Conversation> {
  const { mate, persona, words } = await conversationRows(db, room, recent);
  if (!mate) throw new Error(`room ${room.id}: its mate ${room.mate_id} is gone`);
  return {
    mate,
    persona: persona ?? null,
    userName: user.nickname,
    history: words
      .filter((message) => message.id !== replyId && message.content.trim() !== '')
      .reverse()
      .map((message) => ({
        role: message.role === 'user' ? 'user' : 'mate',
        content: message.content,
      })),
    wholeHistory: words.length < recent,
  };
}

/** How many of a room's newest messages are read first for a prompt (see {@link fittingTurns}). */
const FIRST_READ = 64;

/**
 * The turns of a prompt ({@link buildTurns}) from a room's newest messages only: `read(recent)`
 * reads the conversation with its `recent` newest messages, first {@link FIRST_READ}, and four
 * times more while every one of them fits the model's context and the room has older ones. A
 * room of thousands of messages costs what a room of the few that fit does: reading all of
 * them took 14 ms of the event loop at each send for 5,000 (#20).
 */
export async function fittingTurns(
  read: (recent: number) => Promise<PromptSource & { wholeHistory: boolean }>,
  model: Pick<LanguageModel, 'countTokens' | 'contextSize'>,
  replyTokens: number,
): Promise<ChatTurn[]> {
  for (let recent = FIRST_READ; ; recent *= 4) {
    const source = await read(recent);
    const turns = buildTurns(source, model, replyTokens);
    // The system prompt, then the history's turns: some left out means no older one fits.
    if (source.wholeHistory || turns.length - 1 < source.history.length) return turns;
  }
}
