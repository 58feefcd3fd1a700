import type { ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { ChatStreamEvent, Message } from '@mates/api-client';
import type { MessageTable } from '../db/schema';
import { now } from '../db/dialect';
import { badInput, notFound, notice } from '../http/envelope';
import { body } from '../http/validate';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { getBenefits } from '../accounts/benefits';
import { ProviderError } from '../llm/language-model';
import { appendMessage, toMessage } from './messages';
import { buildTurns } from './prompt';
import { loadConversation } from './conversation';

const SAVE_EVERY_MS = 1000;

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
  });

/** Writes `data:` lines straight to the Node response. */
function eventWriter(res: ServerResponse) {
  return {
    send: (event: ChatStreamEvent) => {
      if (!res.writableEnded && !res.destroyed) res.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    done: () => {
      if (!res.writableEnded && !res.destroyed) res.end('data: [DONE]\n\n');
    },
  };
}

/** `/girl/chat/send`: the user's message, then the mate's reply streamed as it is written. */
export function sendRoute(deps: Deps): Hono<ApiEnv> {
  const { db, chat, config } = deps;
  const routes = new Hono<ApiEnv>();

  routes.post('/chat/send', async (c: Context<ApiEnv>) => {
    const user = requireUser(c);
    const input = await body(c, payload);
    const room = await db
      .selectFrom('rooms')
      .selectAll()
      .where('id', '=', input.roomId)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!room) throw notFound('Room');
    // Refusals come before anything is written, so the user's text stays in their composer.
    if (chat.isBusy(room.id)) throw notice('A reply is still being written in this room.');
    const unavailable = chat.model.unavailableReason();
    if (unavailable) throw notice(unavailable);
    const res = (c.env as { outgoing?: ServerResponse }).outgoing;
    if (!res) throw new Error('chat send needs the Node HTTP server (no outgoing response)');

    const controller = chat.begin(room.id);
    let userMessage: MessageTable | null = null;
    let reply: MessageTable;
    try {
      reply = await db.transaction().execute(async (trx) => {
        const charged = await trx
          .updateTable('benefits')
          .set((eb) => ({ chats: eb('chats', '-', 1), updated_at: now() }))
          .where('user_id', '=', user.id)
          .where('chats', '>=', 1)
          .executeTakeFirst();
        if (Number(charged.numUpdatedRows) === 0)
          throw notice('You have no chats left. Get more on the subscription page.');
        await trx
          .insertInto('benefit_ledger')
          .values({
            user_id: user.id,
            chats_delta: -1,
            gold_coins_delta: 0,
            reason: 'chat',
            created_at: now(),
          })
          .execute();
        if (input.regenerate) {
          // Continue from the chosen user message (after an edit), or from the last one.
          const anchor = await trx
            .selectFrom('messages')
            .select(['position'])
            .where('room_id', '=', room.id)
            .where('role', '=', 'user')
            .$if(Boolean(input.fromMessageId), (q) => q.where('id', '=', input.fromMessageId!))
            .orderBy('position', 'desc')
            .executeTakeFirst();
          if (!anchor)
            throw badInput(
              input.fromMessageId
                ? 'fromMessageId: not a message of yours in this room'
                : 'regenerate: there is no message of yours to answer yet',
            );
          await trx
            .deleteFrom('messages')
            .where('room_id', '=', room.id)
            .where('position', '>', anchor.position)
            .execute();
        } else {
          userMessage = await appendMessage(trx, room.id, {
            role: 'user',
            content: input.content!,
            status: 'complete',
          });
        }
        await trx
          .updateTable('mates')
          .set((eb) => ({ messages_count: eb('messages_count', '+', 1) }))
          .where('id', '=', room.mate_id)
          .execute();
        await trx
          .insertInto('mate_chat_log')
          .values({ mate_id: room.mate_id, user_id: user.id, created_at: now() })
          .execute();
        // Written now, so that a reload during generation already shows the reply growing.
        return appendMessage(trx, room.id, { role: 'mate', content: '', status: 'partial' });
      });
    } catch (error) {
      chat.end(room.id);
      throw error;
    }

    const conversation = await loadConversation(db, room, user, reply.id);
    const turns = buildTurns(
      { ...conversation, language: c.get('language') },
      chat.model,
      config.llm.maxTokens,
    );

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // The client going away stops generation at the next token.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const events = eventWriter(res);
    events.send({
      type: 'reply-start',
      roomId: room.id,
      userMessage: userMessage ? toMessage(userMessage) : null,
      messageId: reply.id,
    });

    let text = '';
    let saving = Promise.resolve();
    let lastSave = Date.now();
    const save = (status: Message['status']) => {
      const content = text;
      saving = saving.then(async () => {
        await db
          .updateTable('messages')
          .set({ content, status })
          .where('id', '=', reply.id)
          .execute();
      });
      return saving;
    };
    try {
      const result = await chat.model.generate(
        turns,
        { signal: controller.signal, maxTokens: config.llm.maxTokens },
        (piece: string) => {
          text += piece;
          events.send({ type: 'reply-delta', text: piece });
          if (Date.now() - lastSave > SAVE_EVERY_MS) {
            lastSave = Date.now();
            void save('partial');
          }
        },
      );
      if (controller.signal.aborted) {
        await finishCutOff();
      } else {
        await save('complete');
        events.send({
          type: 'reply-end',
          messageId: reply.id,
          finishReason: result.finishReason,
          usage: { promptTokens: result.promptTokens, completionTokens: result.completionTokens },
          benefits: await getBenefits(db, user.id),
        });
      }
    } catch (error) {
      if (!(error instanceof ProviderError) && !controller.signal.aborted) {
        deps.log(
          `chat reply failed in room ${room.id}: ${(error as Error).stack ?? String(error)}`,
        );
      }
      await finishCutOff();
      events.send({
        type: 'error',
        message:
          error instanceof ProviderError
            ? error.message
            : 'The reply could not be finished. What arrived is kept.',
        messageId: reply.id,
      });
    } finally {
      chat.end(room.id);
      events.done();
    }
    return RESPONSE_ALREADY_SENT;

    // A reply cut off keeps what arrived; one with nothing at all is marked failed and refunded.
    async function finishCutOff() {
      await save(text ? 'partial' : 'error');
      if (!text) {
        await db
          .updateTable('benefits')
          .set((eb) => ({ chats: eb('chats', '+', 1), updated_at: now() }))
          .where('user_id', '=', user.id)
          .execute();
        await db
          .insertInto('benefit_ledger')
          .values({
            user_id: user.id,
            chats_delta: 1,
            gold_coins_delta: 0,
            reason: 'refund: no reply',
            created_at: now(),
          })
          .execute();
      }
    }
  });
  return routes;
}
