import type { Kysely } from 'kysely';
import type { Database, RoomTable, UserTable } from '../db/schema';
import type { PromptSource } from './prompt';

/** A room's mate, persona and history (without the reply being written), for the prompt. */
export async function loadConversation(
  db: Kysely<Database>,
  room: RoomTable,
  user: UserTable,
  replyId: string,
): Promise<Omit<PromptSource, 'language'>> {
  const [mate, persona, messages] = await Promise.all([
    db.selectFrom('mates').selectAll().where('id', '=', room.mate_id).executeTakeFirstOrThrow(),
    room.persona_id
      ? db.selectFrom('personas').selectAll().where('id', '=', room.persona_id).executeTakeFirst()
      : undefined,
    db
      .selectFrom('messages')
      .select(['id', 'role', 'content'])
      .where('room_id', '=', room.id)
      // Picture messages are not words of the conversation.
      .where('image_prompt', 'is', null)
      .orderBy('position')
      .execute(),
  ]);
  return {
    mate,
    persona: persona ?? null,
    userName: user.nickname,
    history: messages
      .filter((message) => message.id !== replyId && message.content.trim() !== '')
      .map((message) => ({
        role: message.role === 'user' ? 'user' : 'mate',
        content: message.content,
      })),
  };
}
