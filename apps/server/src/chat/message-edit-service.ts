import type { Message } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { now } from '../db/dialect';
import { invalid, missing, refused } from '../domain/errors';
import type { SentenceKey } from '../i18n/texts';
import { picturesOf } from '../images/picture-messages';
import { cancelPicture } from '../images/picture-job-service';
import { dropSpeech } from '../voice/speech-clips';
import { toMessage, versionsOf } from './messages';
import { markMemoriesOf } from './memory-repository';
import { findOwnRoom } from './rooms';
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
 * The user's room, refused (with `waitKey`'s sentence) while a reply is being written in it:
 * its messages change only between replies.
 */
async function idleOwnRoom(deps: RoomDeps, user: UserTable, roomId: string, waitKey: SentenceKey) {
  const room = await findOwnRoom(deps.db, user.id, roomId);
  if (await deps.chat.isBusy(room.id)) throw refused(waitKey);
  return room;
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
  const { db, config } = deps;
  const room = await idleOwnRoom(deps, user, input.roomId, 'notices.chat.waitDelete');
  const row = await findRoomMessage(db, room.id, input.messageId);
  if (!row) throw missing('notices.notFound.message');
  await cancelPicture(deps, row);
  await dropSpeech(db, config, { ids: [row.id] });
  // The file as it is when the row goes: a picture may have been stored since it was read.
  // What was remembered from it may no longer hold: marked in the same transaction.
  const deleted = await db.transaction().execute(async (trx) => {
    await markMemoriesOf(trx, [input.messageId], now());
    return deleteRoomMessage(trx, room.id, input.messageId);
  });
  if (!deleted) throw missing('notices.notFound.message');
  if (deleted.file) await picturesOf(config).store.remove(deleted.file);
}

/** Gives a message of the user's room new words (a picture cannot be edited). */
export async function editMessage(
  deps: RoomDeps,
  user: UserTable,
  input: MessageRef & { content: string },
): Promise<Message> {
  const { db } = deps;
  const room = await idleOwnRoom(deps, user, input.roomId, 'notices.chat.waitEdit');
  if (await isPicture(db, room.id, input.messageId))
    throw invalid('notices.chat.pictureNotEditable');
  const at = now();
  // What was remembered from its old words may no longer hold: marked with the edit.
  const edited = await db.transaction().execute(async (trx) => {
    const written = await writeEdit(trx, { ...input, roomId: room.id, at });
    if (written) await markMemoriesOf(trx, [input.messageId], at);
    return written;
  });
  if (!edited) throw missing('notices.notFound.message');
  // Its audio says the old words.
  await dropSpeech(db, deps.config, { ids: [input.messageId] });
  return toMessage(await messageById(db, input.messageId));
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
  const room = await idleOwnRoom(deps, user, input.roomId, 'notices.chat.waitVersion');
  const last = await lastReplyOf(db, room.id);
  if (!last || last.id !== input.messageId) throw invalid('notices.chat.onlyLastReply');
  const versions = versionsOf(last);
  const content = versions[input.index];
  if (content === undefined)
    throw invalid('notices.chat.versionCount', { versions: versions.length });
  const chosen = await writeChosenVersion(db, last, {
    content,
    others: versions.filter((_, at) => at !== input.index),
    index: input.index,
    // An earlier version was whole when it was kept; an empty one failed.
    status: content.trim() ? 'complete' : 'error',
  });
  if (!chosen) throw refused('notices.chat.versionChanged');
  // Its audio says another version's words.
  await dropSpeech(db, deps.config, { ids: [last.id] });
  return toMessage(await messageById(db, last.id));
}
