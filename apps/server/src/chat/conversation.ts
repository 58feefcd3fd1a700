import type { Kysely } from 'kysely';
import type { Database, RoomTable, UserTable } from '../db/schema';
import type { PromptSource } from './prompt';
import { preparedQuery } from '../db/prepared-query';

// Read for every reply: each compiled once (see `preparedQuery`).
const mateById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('mates').selectAll().where('id', '=', v.id),
);
const personaById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('personas').selectAll().where('id', '=', v.id),
);
const wordsOf = preparedQuery((db, v: { roomId: string }) =>
  db
    .selectFrom('messages')
    .select(['id', 'role', 'content'])
    .where('room_id', '=', v.roomId)
    // Picture messages are not words of the conversation.
    .where('image_prompt', 'is', null)
    .orderBy('position'),
);

/**
 * A room's mate, persona and history (without the reply being written, `replyId`, if any), for
 * the prompt.
 */
export async function loadConversation(
  db: Kysely<Database>,
  room: RoomTable,
  user: UserTable,
  replyId: string | null,
): Promise<Omit<PromptSource, 'language'>> {
  const [mates, personas, messages] = await Promise.all([
    mateById(db, { id: room.mate_id }),
    room.persona_id ? personaById(db, { id: room.persona_id }) : undefined,
    wordsOf(db, { roomId: room.id }),
  ]);
  const mate = mates.rows[0];
  if (!mate) throw new Error(`room ${room.id}: its mate ${room.mate_id} is gone`);
  const persona = personas?.rows[0];
  return {
    mate,
    persona: persona ?? null,
    userName: user.nickname,
    history: messages.rows
      .filter((message) => message.id !== replyId && message.content.trim() !== '')
      .map((message) => ({
        role: message.role === 'user' ? 'user' : 'mate',
        content: message.content,
      })),
  };
}
