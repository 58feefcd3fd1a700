import { randomBytes, randomUUID } from 'node:crypto';
import type { SaveMatePayload } from '@mates/api-client';
import { chattableMateId, signUp, type TestApp } from './harness';
import { appendMessage } from '../src/chat/message-repository';
import { insertMemory } from '../src/chat/memory-repository';
import { mediaOf } from '../src/media/media-of';

export { readZip } from './zip-entries';

/** A mate payload for `saveMate`. */
export const mateDraft = (changes: Partial<SaveMatePayload> = {}): SaveMatePayload => ({
  name: 'Studio Mate',
  tagline: '',
  description: 'A lighthouse keeper who collects lost letters.',
  personality: 'patient',
  scenario: 'A windy evening.',
  first_mes: 'Oh, a visitor, {{user}}!',
  mes_example: '',
  creator_notes: '',
  system_prompt: '',
  alternate_greetings: [],
  tags: ['fantasy'],
  gender: 'female',
  nsfw: false,
  visibility: 'private',
  ...changes,
});

/**
 * A person with something of everything: a chat (a message with three versions, a drawn
 * picture with its file, a voice clip with its file), a branch of it, a persona, a public and a
 * private mate of their own, a review, a favorite, a follow and the welcome in their ledger; the
 * chat's memories (the mate's "Story so far" from the reply, a fact of the mate's the person
 * rewrote, a pinned fact the person added), a report of a mate and a message to support.
 */
export async function fullAccount(app: TestApp) {
  const nickname = `Person ${randomBytes(4).toString('hex')}`;
  const person = await signUp(app);
  const { client, userInfo } = person;
  await client.user.updateNickname({ nickname });
  const media = mediaOf(app.deps.config);
  const mateId = await chattableMateId(app.db);
  const { roomId } = await client.room.createRoom({ mateId });
  const said = await appendMessage(app.db, roomId, {
    role: 'user',
    content: 'The word is marmalade.',
    status: 'complete',
  });
  const reply = await appendMessage(app.db, roomId, {
    role: 'mate',
    content: 'Second answer',
    status: 'complete',
    swipes: { others: ['First answer', 'Third answer'], index: 1 },
  });
  const picture = await appendMessage(app.db, roomId, {
    role: 'mate',
    content: '',
    status: 'complete',
    picture: { prompt: 'a lighthouse at dusk', size: '768x1024' },
  });
  const pictureFile = `${randomBytes(18).toString('base64url')}.webp`;
  const pictureBytes = randomBytes(2048);
  await media.put(`pictures/${pictureFile}`, pictureBytes, 'image/webp');
  await app.db
    .updateTable('messages')
    .set({ image_file: pictureFile })
    .where('id', '=', picture.id)
    .execute();
  const clipFile = `${randomBytes(18).toString('base64url')}.mp3`;
  const clipBytes = randomBytes(1024);
  await media.put(`speech/${clipFile}`, clipBytes, 'audio/mpeg');
  const clipId = randomUUID();
  await app.db
    .insertInto('speech_clips')
    .values({
      id: clipId,
      message_id: reply.id,
      voice: 'embedded-slt',
      text_hash: 'a'.repeat(64),
      file: clipFile,
      mime_type: 'audio/mpeg',
      duration_ms: 1200,
      cost: 1,
      user_id: userInfo.uuid,
      state: 'ready',
      making_until: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  const branch = await client.room.branch({ roomId, messageId: said.id });
  const persona = await client.user.saveOrUpdatePersona({
    name: 'Captain Vale',
    description: 'A retired sailor.',
  });
  const publicMate = await client.mate.saveMate(
    mateDraft({ name: 'Harbour Light', visibility: 'public' }),
  );
  const privateMate = await client.mate.saveMate(mateDraft({ name: 'Quiet Keeper' }));
  await client.mate.review({ mateId, rating: 4, content: 'Kind and curious.' });
  await client.user.doFavorite({ mateId });
  const creator = await app.db
    .selectFrom('mates')
    .select('creator_id')
    .where('id', '=', mateId)
    .executeTakeFirstOrThrow();
  await client.mate.followCreator({ creatorId: creator.creator_id });
  // The chat's memories, written after the branch (which keeps its own path's).
  const at = new Date().toISOString();
  const summaryId = randomUUID();
  await insertMemory(
    app.db,
    {
      id: summaryId,
      room_id: roomId,
      kind: 'summary',
      about: 'story',
      content: 'They traded words about marmalade.',
      author: 'mate',
      created_at: at,
      updated_at: at,
    },
    [
      { id: said.id, position: said.position },
      { id: reply.id, position: reply.position },
    ],
  );
  const rewrittenId = randomUUID();
  await insertMemory(
    app.db,
    {
      id: rewrittenId,
      room_id: roomId,
      kind: 'fact',
      about: 'person',
      content: 'Likes jam.',
      author: 'mate',
      created_at: at,
      updated_at: at,
    },
    [{ id: said.id, position: said.position }],
  );
  await client.room.saveMemory({
    roomId,
    memoryId: rewrittenId,
    content: 'Likes marmalade, never jam.',
  });
  const added = await client.room.saveMemory({
    roomId,
    content: 'My sister is called Philippa.',
    pinned: true,
    about: 'person',
  });
  await client.mate.feedback({ mateId, reason: 'broken', content: 'The greeting stops halfway.' });
  await client.user.feedback({
    category: 'idea',
    content: 'A night theme, please.',
    contact: 'night@example.test',
  });
  return {
    ...person,
    nickname,
    mateId,
    roomId,
    branchId: branch.roomId,
    replyId: reply.id,
    pictureId: picture.id,
    pictureKey: `pictures/${pictureFile}`,
    pictureBytes,
    clipId,
    clipKey: `speech/${clipFile}`,
    clipBytes,
    personaId: persona.uuid,
    saidId: said.id,
    summaryId,
    rewrittenId,
    addedMemoryId: added.memoryId,
    publicMate,
    privateMate,
  };
}
