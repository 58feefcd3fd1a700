import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { z } from 'zod';
import type { RoomInfo, RoomSummary } from '@mates/api-client';
import type { RoomTable } from '../db/schema';
import { badInput, notFound, notice } from '../http/envelope';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { fromJson, now, toJson } from '../db/dialect';
import {
  matesWithCreators,
  paging,
  toMate,
  toMateSummary,
  toPage,
  visibleTo,
} from '../catalog/mate-rows';
import { pageFields } from '../catalog/query-schemas';
import { toPersona } from '../accounts/persona-routes';
import { appendMessage, toMessage, versionsOf } from './messages';
import { fillMacros } from './prompt';
import { canContinue, closedSummary, findOwnRoom, visibleMateIds, withoutCard } from './rooms';
import { textsFor } from '../i18n/texts';
import { en } from '../i18n/en';
import { failEmptyReply } from './turn-service';
import { picturesOf, withImages } from '../images/picture-messages';
import { dropSpeech } from '../voice/speech-clips';
import { cancelPicture } from '../images/picture-job-service';

const id = z.string().min(1).max(100);
const roomQuery = z.object({ roomId: id });
const messageQuery = z.object({ roomId: id, messageId: id });

/** `/room/*`: create, list, info, delete; delete and edit messages. Only the caller's rooms. */
export function roomRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, chat } = deps;
  const routes = new Hono<ApiEnv>();
  const ownRoom = (userId: string, roomId: string) => findOwnRoom(db, userId, roomId);
  const api = contract(routes, '/room');

  const createQuery = z.object({ mateId: id, personaId: id.optional() });
  api.get('/room/createRoom', createQuery, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const mate = await visibleTo(matesWithCreators(db), user, { includeOwn: true })
      .where('mates.id', '=', input.mateId)
      .executeTakeFirst();
    if (!mate) throw notFound('Mate');
    if (!mate.first_mes.trim() && mate.visibility === 'draft')
      throw badInput(
        'mateId: this draft has no greeting yet. Add one in the editor before chatting with it.',
      );
    const persona = input.personaId
      ? await db
          .selectFrom('personas')
          .selectAll()
          .where('id', '=', input.personaId)
          .where('user_id', '=', user.id)
          .executeTakeFirst()
      : await db
          .selectFrom('personas')
          .selectAll()
          .where('user_id', '=', user.id)
          .where('is_default', '=', true)
          .executeTakeFirst();
    if (input.personaId && !persona) throw notFound('Persona');
    const at = now();
    const room: RoomTable = {
      id: randomUUID(),
      user_id: user.id,
      mate_id: mate.id,
      persona_id: persona?.id ?? null,
      created_at: at,
      updated_at: at,
    };
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('rooms').values(room).execute();
      const greeting = fillMacros(mate.first_mes, {
        char: mate.name,
        user: persona?.name ?? user.nickname,
      });
      // The alternate greetings are the greeting's other versions, to swipe between.
      const alternates = fromJson<string[]>(mate.alternate_greetings, [])
        .map((text) => fillMacros(text, { char: mate.name, user: persona?.name ?? user.nickname }))
        .filter((text) => text.trim());
      if (greeting.trim())
        await appendMessage(trx, room.id, {
          role: 'mate',
          content: greeting,
          status: 'complete',
          swipes: { others: alternates, index: 0 },
        });
      // An empty room counts for nothing: the mate's chat count grows with the first message
      // a user sends it (recordChatForTrending), so opening rooms cannot push a mate up.
    });
    return {
      roomId: room.id,
      mateId: room.mate_id,
      personaId: room.persona_id,
      createdAt: room.created_at,
      updatedAt: room.updated_at,
    };
  });

  const listQuery = z.object({ keyword: z.string().trim().max(100).default(''), ...pageFields });
  api.get('/room/roomList', listQuery, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const pages = paging(input);
    const { pageSize, offset } = pages;
    // The caller's chats; with a keyword, those whose mate's name holds it (any case).
    let mine = db
      .selectFrom('rooms')
      .innerJoin('mates', 'mates.id', 'rooms.mate_id')
      .where('rooms.user_id', '=', user.id);
    if (input.keyword) {
      const pattern = `%${input.keyword.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      mine = mine.where(sql<boolean>`lower(mates.name) like ${pattern} escape '\\'`);
    }
    const [total, rooms] = await Promise.all([
      mine.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      mine
        .selectAll('rooms')
        .orderBy('rooms.updated_at', 'desc')
        .orderBy('rooms.id')
        .limit(pageSize)
        .offset(offset)
        .execute(),
    ]);
    const mateIds = rooms.map((r) => r.mate_id);
    const [mates, visible] = await Promise.all([
      mateIds.length
        ? matesWithCreators(db).where('mates.id', 'in', mateIds).execute()
        : Promise.resolve([]),
      visibleMateIds(db, user, mateIds),
    ]);
    // Each room's last message, in one query (the unique (room_id, position) index finds it):
    // a reply that failed before its first word holds nothing to preview, so the one before it.
    const lastRows = rooms.length
      ? await db
          .selectFrom('messages as m')
          .selectAll('m')
          .where(
            'm.room_id',
            'in',
            rooms.map((room) => room.id),
          )
          .where((eb) =>
            eb(
              'm.position',
              '=',
              eb
                .selectFrom('messages as n')
                .select((inner) => inner.fn.max('n.position').as('position'))
                .whereRef('n.room_id', '=', 'm.room_id')
                .where('n.status', '<>', 'error'),
            ),
          )
          .execute()
      : [];
    const lastMessages = await withImages(db, deps.config, lastRows);
    const lastByRoom = new Map(lastMessages.map((message) => [message.roomId, message]));
    const list: RoomSummary[] = rooms.map((room) => {
      const mate = toMateSummary(mates.find((m) => m.id === room.mate_id)!);
      return {
        roomId: room.id,
        mateId: room.mate_id,
        personaId: room.persona_id,
        createdAt: room.created_at,
        updatedAt: room.updated_at,
        mate: visible.has(room.mate_id) ? mate : closedSummary(mate),
        lastMessage: lastByRoom.get(room.id) ?? null,
      };
    });
    return toPage(list, pages, total.n);
  });

  const infoQuery = z.object({
    roomId: id,
    before: id.optional(),
    pageSize: z.coerce.number().int().min(1).max(100).default(50),
  });
  api.get('/room/roomInfo', infoQuery, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const room = await ownRoom(user.id, input.roomId);
    const before = input.before
      ? await db
          .selectFrom('messages')
          .select('position')
          .where('id', '=', input.before)
          .where('room_id', '=', room.id)
          .executeTakeFirst()
      : undefined;
    if (input.before && !before) throw notFound('Message');
    let messages = db.selectFrom('messages').selectAll().where('room_id', '=', room.id);
    if (before) messages = messages.where('position', '<', before.position);
    const newestFirst = await messages
      .orderBy('position', 'desc')
      .limit(input.pageSize + 1)
      .execute();
    const [mate, persona, writable] = await Promise.all([
      matesWithCreators(db).where('mates.id', '=', room.mate_id).executeTakeFirstOrThrow(),
      room.persona_id
        ? db.selectFrom('personas').selectAll().where('id', '=', room.persona_id).executeTakeFirst()
        : undefined,
      canContinue(db, user, room),
    ]);
    const result: RoomInfo = {
      room: {
        roomId: room.id,
        mateId: room.mate_id,
        personaId: room.persona_id,
        createdAt: room.created_at,
        updatedAt: room.updated_at,
      },
      // A creator chatting with their own hidden mate is told why it is hidden (#14).
      mate: writable
        ? toMate(mate, { userId: user.id, isAdmin: false })
        : withoutCard(toMate(mate)),
      persona: persona ? toPersona(persona) : null,
      messages: await withImages(db, deps.config, newestFirst.slice(0, input.pageSize).reverse()),
      hasMoreBefore: newestFirst.length > input.pageSize,
      readOnly: writable ? null : textsFor(c.get('language'))('room.readOnly'),
    };
    return result;
  });

  api.get('/room/deleteRoom', roomQuery, async (c, read) => {
    const user = requireUser(c);
    const room = await ownRoom(user.id, (await read()).roomId);
    await chat.stop(room.id);
    // A reply that had not written a word yet goes with the room: its chat comes back first.
    const unanswered = await db
      .selectFrom('messages')
      .select('id')
      .where('room_id', '=', room.id)
      .where('status', '=', 'partial')
      .where('content', '=', '')
      .execute();
    for (const reply of unanswered)
      await failEmptyReply(db, user.id, reply.id, 'refund: room deleted');
    // Pictures still being drawn stop with their coins back; drawn ones' files go with the room.
    const pictureRows = await db
      .selectFrom('messages')
      .selectAll()
      .where('room_id', '=', room.id)
      .where('image_prompt', 'is not', null)
      .execute();
    for (const picture of pictureRows) await cancelPicture(deps, picture);
    // Spoken clips' rows would go with the messages; their files go here.
    await dropSpeech(db, deps.config, { roomId: room.id });
    // The files as they are when the rows go (a picture may have been stored meanwhile).
    const files = await db
      .deleteFrom('messages')
      .where('room_id', '=', room.id)
      .where('image_prompt', 'is not', null)
      .returning('image_file')
      .execute();
    await db.deleteFrom('rooms').where('id', '=', room.id).execute();
    for (const { image_file: file } of files)
      if (file) await picturesOf(deps.config).store.remove(file);
    return null;
  });

  api.get('/room/deleteMessage', messageQuery, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const room = await ownRoom(user.id, input.roomId);
    if (await chat.isBusy(room.id))
      throw notice('Wait for the reply to finish, or stop it, before deleting messages.');
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', input.messageId)
      .where('room_id', '=', room.id)
      .executeTakeFirst();
    if (!row) throw notFound('Message');
    // A picture still being drawn stops (its coins come back); a drawn one's file goes too.
    await cancelPicture(deps, row);
    await dropSpeech(db, deps.config, { ids: [row.id] });
    // The file as it is when the row goes: a picture may have been stored since it was read.
    const deleted = await db
      .deleteFrom('messages')
      .where('id', '=', input.messageId)
      .where('room_id', '=', room.id)
      .returning('image_file')
      .executeTakeFirst();
    if (!deleted) throw notFound('Message');
    if (deleted.image_file) await picturesOf(deps.config).store.remove(deleted.image_file);
    return null;
  });

  const editQuery = messageQuery.extend({
    content: z.string().trim().min(1, 'is required').max(8000),
  });
  api.get('/room/editMessage', editQuery, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const room = await ownRoom(user.id, input.roomId);
    if (await chat.isBusy(room.id))
      throw notice('Wait for the reply to finish, or stop it, before editing messages.');
    const picture = await db
      .selectFrom('messages')
      .select('image_prompt')
      .where('id', '=', input.messageId)
      .where('room_id', '=', room.id)
      .executeTakeFirst();
    if (picture && picture.image_prompt !== null)
      throw badInput('messageId: a picture cannot be edited; delete it or ask for another.');
    const at = now();
    const updated = await db
      .updateTable('messages')
      .set({ content: input.content, edited_at: at, status: 'complete' })
      .where('id', '=', input.messageId)
      .where('room_id', '=', room.id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw notFound('Message');
    // Its audio says the old words.
    await dropSpeech(db, deps.config, { ids: [input.messageId] });
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', input.messageId)
      .executeTakeFirstOrThrow();
    return toMessage(row);
  });

  // Who the person plays in this chat from the next message on: a persona of theirs, or none.
  const personaBody = z.object({ roomId: id, personaId: id.nullable() });
  api.post('/room/setPersona', personaBody, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const room = await ownRoom(user.id, input.roomId);
    if (input.personaId) {
      const persona = await db
        .selectFrom('personas')
        .select('id')
        .where('id', '=', input.personaId)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!persona) throw notFound('Persona');
    }
    await db
      .updateTable('rooms')
      .set({ persona_id: input.personaId })
      .where('id', '=', room.id)
      .execute();
    return {
      roomId: room.id,
      mateId: room.mate_id,
      personaId: input.personaId,
      createdAt: room.created_at,
      updatedAt: room.updated_at,
    };
  });

  // Another version of the room's last reply (or greeting): the conversation continues from it.
  const swipeBody = z.object({
    roomId: id,
    messageId: id,
    index: z.number().int().min(0).max(1000),
  });
  api.post('/room/chooseSwipe', swipeBody, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const room = await ownRoom(user.id, input.roomId);
    if (await chat.isBusy(room.id))
      throw notice('Wait for the reply to finish, or stop it, before choosing another version.');
    const last = await db
      .selectFrom('messages')
      .selectAll()
      .where('room_id', '=', room.id)
      .where('role', '=', 'mate')
      .where('image_prompt', 'is', null)
      .orderBy('position', 'desc')
      .executeTakeFirst();
    if (!last || last.id !== input.messageId)
      throw badInput('messageId: only the last reply of the room has versions to choose from.');
    const versions = versionsOf(last);
    if (input.index >= versions.length)
      throw badInput(`index: this message has ${versions.length} version(s), counted from 0.`);
    const others = versions.filter((_, at) => at !== input.index);
    const chosen = await db
      .updateTable('messages')
      .set({
        content: versions[input.index]!,
        swipes: others.length ? toJson(others) : null,
        swipe_index: input.index,
        // An earlier version was whole when it was kept; an empty one failed.
        status: versions[input.index]!.trim() ? 'complete' : 'error',
      })
      .where('id', '=', last.id)
      // Only the versions read above: a regeneration or edit that began meanwhile wins.
      .where('content', '=', last.content)
      .where('swipe_index', '=', last.swipe_index)
      .executeTakeFirst();
    if (Number(chosen.numUpdatedRows) === 0) throw notice(en.notices.chat.versionChanged);
    // Its audio says another version's words.
    await dropSpeech(db, deps.config, { ids: [last.id] });
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', last.id)
      .executeTakeFirstOrThrow();
    return toMessage(row);
  });
  return routes;
}
