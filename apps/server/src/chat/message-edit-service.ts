import type { Message } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { now } from '../db/dialect';
import { invalid, missing, refused } from '../domain/errors';
import { removePictureFiles } from '../images/picture-messages';
import { cancelPicture } from '../images/picture-job-service';
import { dropSpeech } from '../voice/speech-clips';
import { toMessage, versionStatusesOf, versionsOf } from './messages';
import { markMemoriesOf } from './memory-repository';
import { holdRoomRow } from './room-row-repository';
import { giveBackUnwritten } from './turn-service';
import { inIdleRoom } from './rooms';
import type { RoomDeps } from './room-service';
import {
  deleteRoomMessage,
  findRoomMessage,
  isPicture,
  lastReplyOf,
  messageById,
  writeChosenVersion,
  writeEdit,
} from './message-repository';

/** A message of one of the user's rooms. */
export interface MessageRef {
  roomId: string;
  messageId: string;
}

/**
 * Deletes a message of the user's room: a picture still being drawn stops (its coins come
 * back), and a drawn picture's file and the message's spoken clips go too.
 */
export async function deleteMessage(
  deps: RoomDeps,
  user: UserTable,
  input: MessageRef,
): Promise<void> {
  const { db } = deps;
  const file = await inIdleRoom(
    deps,
    user,
    input.roomId,
    'notices.chat.waitDelete',
    async (room) => {
      const row = await findRoomMessage(db, room.id, input.messageId);
      if (!row) throw missing('notices.notFound.message');
      await cancelPicture(deps, row);
      await dropSpeech(deps, { ids: [row.id] });
      // The file as it is when the row goes: a picture may have been stored since it was read.
      // What was remembered from it may no longer hold: marked in the same transaction.
      const deleted = await db.transaction().execute(async (trx) => {
        await holdRoomRow(trx, room.id);
        await markMemoriesOf(trx, [input.messageId], now());
        // A reply charged and never written goes with its chat given back.
        await giveBackUnwritten(trx, user.id, room.id, input.messageId);
        return deleteRoomMessage(trx, room.id, input.messageId);
      });
      if (!deleted) throw missing('notices.notFound.message');
      return deleted.file;
    },
  );
  // Once the room is free again: a file store may be slow.
  if (file) await removePictureFiles(deps, [file]);
}

/** Gives a message of the user's room new words (a picture cannot be edited). */
export async function editMessage(
  deps: RoomDeps,
  user: UserTable,
  input: MessageRef & { content: string },
): Promise<Message> {
  const { db } = deps;
  return inIdleRoom(deps, user, input.roomId, 'notices.chat.waitEdit', async (room) => {
    if (await isPicture(db, room.id, input.messageId))
      throw invalid('notices.chat.pictureNotEditable');
    const at = now();
    // What was remembered from its old words may no longer hold: marked with the edit.
    const edited = await db.transaction().execute(async (trx) => {
      // Beside a run of the memory writer, one after the other: what either left stale of the
      // other's words is marked.
      await holdRoomRow(trx, room.id);
      // A reply charged and never written, given words by hand: its chat comes back.
      await giveBackUnwritten(trx, user.id, room.id, input.messageId);
      const written = await writeEdit(trx, { ...input, roomId: room.id, at });
      if (written) await markMemoriesOf(trx, [input.messageId], at);
      return written;
    });
    if (!edited) throw missing('notices.notFound.message');
    // Its audio says the old words.
    await dropSpeech(deps, { ids: [input.messageId] });
    return toMessage(await messageById(db, input.messageId));
  });
}

/**
 * Makes another version of the room's last reply (or greeting) the one the conversation
 * continues from. Refused when a regeneration or edit changed the reply since it was read.
 */
export async function chooseSwipe(
  deps: RoomDeps,
  user: UserTable,
  input: MessageRef & { index: number },
): Promise<Message> {
  const { db } = deps;
  return inIdleRoom(deps, user, input.roomId, 'notices.chat.waitVersion', async (room) => {
    const last = await lastReplyOf(db, room.id);
    if (!last || last.id !== input.messageId) throw invalid('notices.chat.onlyLastReply');
    const versions = versionsOf(last);
    const statuses = versionStatusesOf(last);
    const content = versions[input.index];
    if (content === undefined)
      throw invalid('notices.chat.versionCount', { versions: versions.length });
    await db.transaction().execute(async (trx) => {
      await holdRoomRow(trx, room.id);
      // A regeneration charged and never written, swiped away: its chat comes back.
      await giveBackUnwritten(trx, user.id, room.id, last.id);
      // Each version keeps its state: one stopped part way is cut off wherever it is.
      const chosen = await writeChosenVersion(trx, last, {
        content,
        status: statuses[input.index]!,
        others: versions.filter((_, at) => at !== input.index),
        statuses: statuses.filter((_, at) => at !== input.index),
        index: input.index,
      });
      if (!chosen) throw refused('notices.chat.versionChanged');
    });
    // Its audio says another version's words.
    await dropSpeech(deps, { ids: [last.id] });
    return toMessage(await messageById(db, last.id));
  });
}
