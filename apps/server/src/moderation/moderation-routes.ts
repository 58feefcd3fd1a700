import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import { MATE_FEEDBACK_REASONS, REPORT_QUEUE_STATES } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { id, pageFields } from '../catalog/query-schemas';
import {
  dismissReports,
  hideMate,
  moderator,
  reportQueue,
  restoreMate,
} from './moderation-service';

const queueQuery = z.object({
  state: z.enum(REPORT_QUEUE_STATES).default(REPORT_QUEUE_STATES[0]),
  ...pageFields,
});
const hidePayload = z.object({
  mateId: id,
  reason: z.enum(MATE_FEEDBACK_REASONS),
  note: z.string().trim().max(2000).default(''),
});
const mateQuery = z.object({ mateId: id });

/** `/admin/*`: the moderation queue of reported mates, for administrators (`ADMIN_EMAILS`). */
export function moderationRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/admin');
  // Checked before the call's input is read: a visitor gets 5002, anyone else 4003, whatever
  // they sent.
  const admin = (c: Context<ApiEnv>): UserTable => moderator(deps, requireUser(c));

  api.get('/admin/reports', queueQuery, async (c, read) => {
    admin(c);
    return reportQueue(deps, await read());
  });

  api.post('/admin/hideMate', hidePayload, async (c, read) => {
    const user = admin(c);
    return hideMate(deps, user, await read());
  });

  api.post('/admin/restoreMate', mateQuery, async (c, read) => {
    admin(c);
    await restoreMate(deps, (await read()).mateId);
    return null;
  });

  api.post('/admin/dismissReports', mateQuery, async (c, read) => {
    const user = admin(c);
    await dismissReports(deps, user, (await read()).mateId);
    return null;
  });
  return routes;
}
