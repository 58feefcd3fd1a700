import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type * as Ws from 'ws';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import type { CallClientMessage, CallEndReason, CallServerMessage } from '@mates/api-client';
import { sessionCache } from '../accounts/session-cache';
import { DomainError } from '../domain/errors';
import { isProviderError } from '../domain/provider-error';
import { textsFor } from '../i18n/texts';
import { CODE } from '../http/envelope';
import type { Deps } from '../http/context';
import type { MemoryKeeper } from '../chat/memory-keeper';
import { CallFailure, openTicket, sessionUser, VoiceCall, type CallDeps } from './call-service';
import { TRANSCRIBE_MAX_BYTES } from './transcribe-routes';

/** Where a call's socket is opened (the ticket in its query). */
export const CALL_SOCKET_PATH = '/api/call/socket';

/** Close codes: the call ended as it should; a bad ticket (after an `error` message). */
export const CALL_CLOSE = { normal: 1000, going: 1001, badTicket: 4001 } as const;

/** How often an open call's socket is pinged; one that did not answer the last ping is cut. */
const HEARTBEAT_MS = 15_000;

/** What the browser may send as JSON: checked before the call sees it. */
const clientMessage: z.ZodType<CallClientMessage> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(100_000) }),
  z.object({
    type: z.literal('barge-in'),
    messageId: z.string().min(1).max(100),
    heard: z.number().int().min(0).max(100_000),
  }),
  z.object({ type: z.literal('mute'), muted: z.boolean() }),
  z.object({ type: z.literal('hang-up') }),
]);

/** The calls open on this server, and how they hear of the others. */
export interface CallHub {
  /** Takes the server's WebSocket upgrades at {@link CALL_SOCKET_PATH}. */
  attach: (server: Server) => void;
  /** Calls open here. */
  open: () => number;
  /** Ends every call here (`server`: a shutdown) and waits until what they said is saved. */
  closeAll: (reason: CallEndReason) => Promise<void>;
}

const hubs = new WeakMap<Deps, CallHub>();

/** The call hub `createApp` made for `deps`. */
export function callHubOf(deps: Deps): CallHub {
  const hub = hubs.get(deps);
  if (!hub) throw new Error('no call hub: createApp(deps) makes it');
  return hub;
}

/** Lets `server` (the HTTP server of the app made with `deps`) open voice calls. */
export function attachCalls(server: Server, deps: Deps): void {
  callHubOf(deps).attach(server);
}

/**
 * The voice calls of this server, over `ws` WebSockets on the HTTP server's own port (its
 * `upgrade` event, `noServer`): one socket per call, opened with a one-time ticket. A person has
 * one call open: opening another ends the first (`replaced`), on every server through Redis.
 * A sign-out, a password change or an expired session ends their calls (the session cache's
 * forgets, which reach every server). Dead sockets are found by ping and pong and cut.
 */
export function createCallHub(deps: Deps & { memory?: MemoryKeeper }): CallHub {
  const calls = new Set<VoiceCall>();
  // `ws` is required at the first call, not at start: a server nobody calls never loads it.
  let sockets: WebSocketServer | undefined;
  const socketServer = (): WebSocketServer =>
    (sockets ??= new (createRequire(import.meta.url)('ws') as typeof Ws).WebSocketServer({
      noServer: true,
      maxPayload: TRANSCRIBE_MAX_BYTES,
      clientTracking: false,
    }));
  const callDeps: CallDeps & { idleMs: number } = {
    ...deps,
    idleMs: deps.config.callIdleMs,
  };
  const replaceChannel = deps.redis ? `${deps.redis.prefix}call:opened` : null;
  /** A call opened (here or elsewhere): the person's other calls end. */
  const opened = (userId: string, callId: string) => {
    for (const call of calls)
      if (call.userId === userId && call.id !== callId) void call.end('replaced');
  };
  if (deps.redis && replaceChannel) {
    const { subscriber } = deps.redis;
    subscriber.on('message', (from: string, message: string) => {
      if (from !== replaceChannel) return;
      const [userId, callId] = message.split(' ');
      if (userId && callId) opened(userId, callId);
    });
    const subscribe = () => {
      subscriber.subscribe(replaceChannel).catch((error: unknown) => {
        deps.log.warn(`could not listen for calls opened elsewhere: ${(error as Error).message}`);
      });
    };
    subscriber.on('ready', subscribe);
    if (subscriber.status === 'ready') subscribe();
  }
  // A forget names a session ended, or a user whose sessions may have ended: each call of theirs
  // reads its own session again, and ends if it is gone.
  sessionCache(deps.db).listen((forgotten) => {
    for (const call of calls) {
      if (
        'tokenHash' in forgotten
          ? call.sessionHash !== forgotten.tokenHash
          : call.userId !== forgotten.userId
      )
        continue;
      sessionUser(deps, call.sessionHash)
        .then((user) => {
          if (!user) void call.end('signed-out');
        })
        .catch((error: unknown) =>
          deps.log.warn(`voice call ${call.id}: session not read: ${(error as Error).message}`),
        );
    }
  });

  const accept = async (socket: WebSocket, request: IncomingMessage) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    // Before the ticket is known, the person's language is what the socket's address says.
    const language = url.searchParams.get('language') ?? 'en';
    const ticket = url.searchParams.get('ticket') ?? '';
    const opening = ticket ? await openTicket(deps, ticket).catch(() => undefined) : undefined;
    const user = opening ? await sessionUser(deps, opening.session_hash) : null;
    if (!opening || !user || socket.readyState !== socket.OPEN) {
      const message: CallServerMessage = {
        type: 'error',
        code: CODE.sessionExpired,
        message: textsFor(language)('notices.call.badTicket'),
      };
      socket.send(JSON.stringify(message), () => socket.close(CALL_CLOSE.badTicket, 'bad ticket'));
      return;
    }
    const log = deps.log.child({ callId: opening.call_id, userId: user.id });
    let alive = true;
    const send = (data: string | Uint8Array) => {
      if (socket.readyState === socket.OPEN) socket.send(data);
    };
    const call = new VoiceCall(
      callDeps,
      opening,
      user,
      {
        send: (message) => send(JSON.stringify(message)),
        sendAudio: (audio) => send(audio),
        close: () => {
          if (socket.readyState === socket.OPEN) socket.close(CALL_CLOSE.normal, 'call ended');
        },
        fail: (error) => send(JSON.stringify(failure(error, user.language, log))),
      },
      log,
    );
    calls.add(call);
    // One call a person: the one opened last.
    opened(user.id, call.id);
    if (deps.redis && replaceChannel)
      deps.redis.client.publish(replaceChannel, `${user.id} ${call.id}`).catch((error: unknown) => {
        log.warn(
          `could not tell the other servers of call ${call.id}: ${(error as Error).message}`,
        );
      });
    const heartbeat = setInterval(() => {
      if (!alive) {
        // No pong since the last ping: the network is gone.
        socket.terminate();
        return;
      }
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    heartbeat.unref();
    socket.on('pong', () => (alive = true));
    socket.on('message', (data: RawData, isBinary: boolean) => {
      alive = true;
      const bytes = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data);
      if (isBinary) {
        call.hear(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        parsed = null;
      }
      const checked = clientMessage.safeParse(parsed);
      if (!checked.success) {
        send(
          JSON.stringify({
            type: 'error',
            code: CODE.badInput,
            message: `${checked.error.issues[0]?.path.join('.') || 'message'}: ${checked.error.issues[0]?.message ?? 'not a call message'}`,
          } satisfies CallServerMessage),
        );
        return;
      }
      call.take(checked.data);
    });
    socket.on('close', () => {
      clearInterval(heartbeat);
      calls.delete(call);
      // Gone without a hang-up (the network, a closed tab): stopped and saved, nobody told.
      if (!call.ended) void call.end('hang-up', { tell: false });
    });
    socket.on('error', (error) => log.warn(`voice call ${call.id}: ${error.message}`));
    log.info(`voice call ${call.id} opened in room ${opening.room_id}`);
    call.open();
  };

  return {
    attach: (server) => {
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        const path = (request.url ?? '').split('?')[0];
        if (path !== CALL_SOCKET_PATH) {
          socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
          return;
        }
        socketServer().handleUpgrade(request, socket, head, (ws) => {
          accept(ws, request).catch((error: unknown) => {
            deps.log.error(`voice call not opened: ${(error as Error).stack}`);
            ws.close(CALL_CLOSE.going, 'server error');
          });
        });
      });
    },
    open: () => calls.size,
    closeAll: async (reason) => {
      await Promise.all([...calls].map((call) => call.end(reason)));
    },
  };
}

/** Registers the hub of `deps` (see {@link callHubOf}). */
export function keepCallHub(deps: Deps, hub: CallHub): void {
  hubs.set(deps, hub);
}

/** A failure as the call's `error` message, in the person's language. */
function failure(
  error: unknown,
  language: string,
  log: { warn: (message: string) => void },
): CallServerMessage {
  if (error instanceof DomainError)
    return { type: 'error', code: CODE[error.refusal], message: error.sentence(language) };
  if (error instanceof CallFailure)
    return { type: 'error', code: CODE.notice, message: error.message };
  if (isProviderError(error)) {
    log.warn(`voice call: ${error.message}`);
    const failure = (error as { failure: string }).failure;
    return {
      type: 'error',
      code: CODE.notice,
      message: textsFor(language)(`notices.voice.${failure}` as never),
    };
  }
  log.warn(`voice call: ${(error as Error).stack ?? String(error)}`);
  return {
    type: 'error',
    code: CODE.internal,
    message: textsFor(language)('notices.server.internal'),
  };
}
