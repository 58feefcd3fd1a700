import { Hono } from 'hono';
import { z } from 'zod';
import { GROUP_LIMITS, GROUP_TURN_ORDERS } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { hasVisible, personText } from './message-text';
import {
  addGroupMember,
  createGroup,
  removeGroupMember,
  updateGroup,
  updateGroupMember,
} from './group-service';

const id = z.string().min(1).max(100);
const name = personText(GROUP_LIMITS.nameMax);
const scenario = z.string().trim().max(GROUP_LIMITS.scenarioMax);
const order = z.enum(GROUP_TURN_ORDERS);
const createBody = z.object({
  mateIds: z.array(id).min(GROUP_LIMITS.minMembers).max(GROUP_LIMITS.maxMembers),
  // Nothing visible is no name: the members' names stand for it, as for an empty one.
  name: z
    .string()
    .trim()
    .max(GROUP_LIMITS.nameMax)
    .transform((text) => (hasVisible(text) ? text : ''))
    .optional(),
  scenario: scenario.optional(),
  turnOrder: order.default('natural'),
  personaId: id.optional(),
});
const updateBody = z.object({
  roomId: id,
  name: name.optional(),
  scenario: scenario.optional(),
  turnOrder: order.optional(),
  order: z.array(id).max(GROUP_LIMITS.maxMembers).optional(),
});
const memberBody = z.object({ roomId: id, mateId: id });
const updateMemberBody = memberBody.extend({
  muted: z.boolean().optional(),
  talkativeness: z.number().min(0).max(1).optional(),
});

/** `/room/*` of group chats: make a group, change it, and who is in it. The caller's only. */
export function groupRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/room');

  api.post('/room/createGroup', createBody, async (c, read) =>
    createGroup(deps, requireUser(c), await read()),
  );

  api.post('/room/updateGroup', updateBody, async (c, read) =>
    updateGroup(deps, requireUser(c), await read()),
  );

  api.post('/room/addGroupMember', memberBody, async (c, read) =>
    addGroupMember(deps, requireUser(c), await read()),
  );

  api.post('/room/removeGroupMember', memberBody, async (c, read) =>
    removeGroupMember(deps, requireUser(c), await read()),
  );

  api.post('/room/updateGroupMember', updateMemberBody, async (c, read) =>
    updateGroupMember(deps, requireUser(c), await read()),
  );
  return routes;
}
