import { Hono } from 'hono';
import { z } from 'zod';
import type { CallTicket } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv } from '../http/context';
import { startCall, type CallDeps } from './call-service';

const startSchema = z.object({ roomId: z.string().min(1).max(100) });

/**
 * `POST /call/start` (#42): a one-time ticket for the socket of a voice call with one of the
 * caller's rooms (see `startCall`); the socket itself is `call-socket.ts`'s.
 */
export function callRoutes(deps: CallDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  contract(routes, '/call').post(
    '/call/start',
    startSchema,
    async (c, read): Promise<CallTicket> => {
      const user = requireUser(c);
      const { roomId } = await read();
      return startCall(deps, { user, token: c.get('token') }, roomId);
    },
  );
  return routes;
}
