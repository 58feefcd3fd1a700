import type { ServerResponse } from 'node:http';
import { Hono } from 'hono';
import { z } from 'zod';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { ChatSendPayload } from '@mates/api-client';
import { notice } from '../http/envelope';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { textsFor } from '../i18n/texts';
import { requireModel } from './model-refusal';
import { canContinue, findOwnRoom } from './rooms';
import { removeSpeechFiles } from '../voice/speech-clips';
import { startReply } from './start-reply';
import { generateAhead, writeReply } from './write-reply';
import { getBenefits } from '../accounts/benefits';
import { openEventStream } from './event-stream';

const payload = z
  .object({
    roomId: z.string().min(1).max(100),
    content: z.string().trim().min(1, 'is required').max(8000).optional(),
    regenerate: z.boolean().optional(),
    fromMessageId: z.string().min(1).max(100).optional(),
  })
  .refine((input) => Boolean(input.regenerate) !== (input.content !== undefined), {
    message: 'send either content or regenerate: true',
    path: ['content'],
  })
  // Narrowed to the contract's union: a new message, or a regeneration.
  .transform(({ roomId, content, fromMessageId }): ChatSendPayload =>
    content !== undefined ? { roomId, content } : { roomId, regenerate: true, fromMessageId },
  );

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

/** `/girl/chat/send`: the user's message, then the mate's reply streamed as it is written. */
export function sendRoute(deps: Deps): Hono<ApiEnv> {
  const { db, chat, config } = deps;
  const routes = new Hono<ApiEnv>();

  contract(routes, '/girl').post('/girl/chat/send', payload, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const language = c.get('language');
    const room = await findOwnRoom(db, user.id, input.roomId);
    // Refusals come before anything is written, so the user's text stays in their composer.
    if (!(await canContinue(db, user, room))) throw notice(textsFor(language)('room.readOnly'));
    // Held before anything else is checked: two sends through two servers cannot both pass.
    const controller = await chat.begin(room.id);
    if (!controller) throw notice('A reply is still being written in this room.');
    try {
      requireModel(chat.model, language);
      const res = (c.env as { outgoing?: ServerResponse }).outgoing;
      if (!res) throw new Error('chat send needs the Node HTTP server (no outgoing response)');
      const replyDeps = {
        db,
        model: chat.model,
        log: c.get('log'),
        maxTokens: config.llm.maxTokens,
        saveEveryMs: chat.saveEveryMs,
      };
      // A new message's reply is asked for while the turn is written: the provider's first
      // words are on their way meanwhile, and held until the message is saved. Should that
      // fail (the prompt could not be built), the reply is asked for again once the turn is
      // written, as a regeneration's is, and the failure is reported in the stream and refunded.
      // Not for someone with no chat left: the send is refused, and the provider (which an
      // operator may pay by the token) is never asked.
      const early =
        input.content === undefined || (await getBenefits(db, user.id)).chats < 1
          ? null
          : await generateAhead(
              replyDeps,
              { room, user, content: input.content },
              language,
              controller.signal,
            ).catch(() => null);
      const started = await startReply(db, user, room, input).catch(async (error: unknown) => {
        // Refused or not written: the reply is not wanted, and nothing was charged.
        c.get('sendStarted')();
        early?.stop();
        await early?.settled;
        throw error;
      });
      // Started: the next send waiting may start (see `send-starts.ts`).
      c.get('sendStarted')();
      await removeSpeechFiles(config, started.droppedSpeech);
      // Only now, with the user's message saved, does the first byte go out.
      const events = openEventStream(res, controller, c.get('requestId'));
      await writeReply(replyDeps, started, language, events.send, controller.signal, early);
      events.done();
    } finally {
      await chat.end(room.id);
    }
    return alreadySent();
  });
  return routes;
}
