import { Hono } from 'hono';
import { z } from 'zod';
import { MEMORY_SUBJECTS, MEMORY_TEXT_MAX } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import type { MemoryKeeper } from './memory-keeper';
import { personText } from './message-text';
import {
  deleteMemory,
  listMemories,
  promptView,
  saveMemory,
  setMemoryAcrossChats,
  writeMemoriesNow,
} from './memory-service';

const id = z.string().min(1).max(100);
const roomQuery = z.object({ roomId: id });
const memoriesQuery = z.object({ roomId: id, mateId: id.optional() });
const saveBody = z
  .object({
    roomId: id,
    mateId: id.nullable().optional(),
    memoryId: id.optional(),
    // Unchanged when a change leaves it out (a pin, a "Keep"); a new memory needs it.
    content: personText(MEMORY_TEXT_MAX).optional(),
    pinned: z.boolean().optional(),
    about: z.enum(MEMORY_SUBJECTS).optional(),
  })
  .refine((body) => body.memoryId !== undefined || body.content !== undefined, {
    path: ['content'],
    message: 'is required',
  });
const deleteBody = z.object({ roomId: id, memoryId: id });
const acrossBody = z.object({ roomId: id, enabled: z.boolean() });

/** `/room/*` of memory: what a mate remembers of a chat, and what its last reply saw. */
export function memoryRoutes(deps: Deps, memory: MemoryKeeper): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/room');
  const service = {
    db: deps.db,
    model: deps.chat.model,
    maxTokens: deps.config.llm.maxTokens,
    memory,
  };

  api.get('/room/memories', memoriesQuery, async (c, read) =>
    listMemories(service, requireUser(c), await read(), c.get('language')),
  );

  api.post('/room/saveMemory', saveBody, async (c, read) =>
    saveMemory(service, requireUser(c), await read()),
  );

  api.post('/room/deleteMemory', deleteBody, async (c, read) => {
    await deleteMemory(service, requireUser(c), await read());
    return null;
  });

  api.post('/room/setMemoryAcrossChats', acrossBody, async (c, read) =>
    setMemoryAcrossChats(service, requireUser(c), await read(), c.get('language')),
  );

  api.post('/room/writeMemories', roomQuery, async (c, read) =>
    writeMemoriesNow(service, requireUser(c), (await read()).roomId, c.get('language')),
  );

  api.get('/room/promptView', roomQuery, async (c, read) =>
    promptView(service, requireUser(c), (await read()).roomId, c.get('language')),
  );
  return routes;
}
