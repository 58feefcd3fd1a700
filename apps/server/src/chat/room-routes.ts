import { Hono } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { pageFields } from '../catalog/query-schemas';
import { createRoom, deleteRoom, listRooms, roomInfo, setPersona } from './room-service';
import { personText } from './message-text';
import { chooseSwipe, deleteMessage, editMessage } from './message-edit-service';
import { branchRoom, exportChat, roomBranches } from './branch-service';
import { searchMessages } from './message-search-service';
import { CHAT_EXPORT_FORMATS } from '@mates/api-client';

const id = z.string().min(1).max(100);
const roomQuery = z.object({ roomId: id });
const messageQuery = z.object({ roomId: id, messageId: id });
const createQuery = z.object({ mateId: id, personaId: id.optional() });
const listQuery = z.object({ keyword: z.string().trim().max(100).default(''), ...pageFields });
const infoQuery = z.object({
  roomId: id,
  before: id.optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
const editQuery = messageQuery.extend({
  content: personText(8000),
});
// Who the person plays in this chat from the next message on: a persona of theirs, or none.
const personaBody = z.object({ roomId: id, personaId: id.nullable() });
// Another version of the room's last reply (or greeting): the conversation continues from it.
const swipeBody = z.object({
  roomId: id,
  messageId: id,
  index: z.number().int().min(0).max(1000),
});

// "Branch from here": a new path of the chat holding its messages up to this one.
const branchBody = z.object({ roomId: id, messageId: id });
const exportQuery = z.object({ roomId: id, format: z.enum(CHAT_EXPORT_FORMATS) });
// Words in any message of the caller's chats.
const searchQuery = z.object({
  keyword: z.string().trim().min(1, 'is required').max(100),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
});

/**
 * `/room/*`: create, list, info, delete; delete and edit messages; branches and exports. Only
 * the caller's rooms.
 */
export function roomRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/room');

  api.get('/room/createRoom', createQuery, async (c, read) =>
    createRoom(deps, requireUser(c), await read()),
  );

  api.get('/room/roomList', listQuery, async (c, read) =>
    listRooms(deps, requireUser(c), { ...(await read()), language: c.get('language') }),
  );

  api.get('/room/roomInfo', infoQuery, async (c, read) =>
    roomInfo(deps, requireUser(c), { ...(await read()), language: c.get('language') }),
  );

  api.get('/room/deleteRoom', roomQuery, async (c, read) => {
    await deleteRoom(deps, requireUser(c), (await read()).roomId);
    return null;
  });

  api.get('/room/deleteMessage', messageQuery, async (c, read) => {
    await deleteMessage(deps, requireUser(c), await read());
    return null;
  });

  api.get('/room/editMessage', editQuery, async (c, read) =>
    editMessage(deps, requireUser(c), await read()),
  );

  api.post('/room/setPersona', personaBody, async (c, read) =>
    setPersona(deps, requireUser(c), await read()),
  );

  api.post('/room/chooseSwipe', swipeBody, async (c, read) =>
    chooseSwipe(deps, requireUser(c), await read()),
  );

  api.post('/room/branch', branchBody, async (c, read) =>
    branchRoom(deps, requireUser(c), await read()),
  );

  api.get('/room/branches', roomQuery, async (c, read) =>
    roomBranches(deps, requireUser(c), (await read()).roomId),
  );

  api.get('/room/exportChat', exportQuery, async (c, read) =>
    exportChat(deps, requireUser(c), await read()),
  );

  api.get('/room/searchMessages', searchQuery, async (c, read) =>
    searchMessages(deps, requireUser(c), await read()),
  );
  return routes;
}
