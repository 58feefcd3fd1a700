import type { ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { ChatSendPayload } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { openEventStream } from './event-stream';
import { personText } from './message-text';
import { sendTurn } from './send-service';
import type { MemoryKeeper } from './memory-keeper';

const payload = z
  .object({
    roomId: z.string().min(1).max(100),
    content: personText(8000).optional(),
    regenerate: z.boolean().optional(),
    fromMessageId: z.string().min(1).max(100).optional(),
    // A group chat's "Continue", or "Let X speak" with the member's id.
    next: z.boolean().optional(),
    speakerId: z.string().min(1).max(100).optional(),
  })
  .refine(
    (input) =>
      [Boolean(input.regenerate), input.content !== undefined, Boolean(input.next)].filter(Boolean)
        .length === 1,
    { message: 'send either content, regenerate: true or next: true', path: ['content'] },
  )
  // A field of another kind of send is refused, not dropped: `{ content, speakerId }` would
  // otherwise go as a plain message, whoever it was meant for.
  .refine((input) => input.speakerId === undefined || input.next === true, {
    message: 'names who speaks next, with next: true only',
    path: ['speakerId'],
  })
  .refine((input) => input.fromMessageId === undefined || input.regenerate === true, {
    message: 'names the message to answer again, with regenerate: true only',
    path: ['fromMessageId'],
  })
  // Narrowed to the contract's union: a new message, a regeneration, or one more reply.
  .transform(({ roomId, content, fromMessageId, next, speakerId }): ChatSendPayload => {
    if (content !== undefined) return { roomId, content };
    if (next) return { roomId, next: true, ...(speakerId !== undefined && { speakerId }) };
    return { roomId, regenerate: true, fromMessageId };
  });

/**
 * The marker telling @hono/node-server that the answer was written already. The adapter sends
 * a response it made itself straight from its cache, without looking for the marker's header
 * (2.1.8), and then fails writing headers a second time; reading the body turns the marker
 * into a standard Response, which it does check.
 */
function alreadySent(): Response {
  void RESPONSE_ALREADY_SENT.body;
  return RESPONSE_ALREADY_SENT;
}

/** The Node response under a Hono context: a reply is streamed straight onto it. */
function outgoing(c: Context<ApiEnv>): ServerResponse {
  const res = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (!res) throw new Error('chat send needs the Node HTTP server (no outgoing response)');
  return res;
}

/** `/girl/chat/send`: the user's message, then the mate's reply streamed as it is written. */
export function sendRoutes(deps: Deps & { memory?: MemoryKeeper }): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  contract(routes, '/girl').post('/girl/chat/send', payload, async (c, read) => {
    const user = requireUser(c);
    const request = await read();
    const res = outgoing(c);
    await sendTurn(deps, {
      user,
      request,
      language: c.get('language'),
      log: c.get('log'),
      started: c.get('sendStarted'),
      open: (controller) => openEventStream(res, controller, c.get('requestId')),
    });
    return alreadySent();
  });
  return routes;
}
