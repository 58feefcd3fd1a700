import { describe, expect, it, vi } from 'vitest';
import { getShortestPaths, getStateNodes } from '@xstate/graph';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { ApiError, type ChatStreamEvent, type UserInfo } from '@mates/api-client';
import { authPopupMachine } from './auth-popup-machine';
import { verificationMachine } from './verification-machine';
import { chatStreamMachine } from './chat-stream-machine';
import { studioMachine } from './studio-machine';
import { emptyMateDraft } from './mate-draft-rules';
import { AUTH_MODE } from './constants';
import { createFakePlatform } from './platform.test-helper';

const USER = { uuid: 'u1', token: 't', language: 'en' } as UserInfo;
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('x') });
const streamEvent = (event: ChatStreamEvent) => ({ type: 'STREAM.EVENT', event });

/** The ids of every atomic and final state node, e.g. `authPopup.open.signingIn`. */
function leafIds(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root)
    .filter((node) => node.type === 'atomic' || node.type === 'final')
    .map((node) => node.id)
    .sort();
}

/** Non-final leaf states with no event, delay or invoked actor to leave by (theirs or an ancestor's). */
function deadEnds(machine: AnyStateMachine): string[] {
  type Node = {
    id: string;
    type: string;
    parent?: Node;
    on: object;
    after: unknown[];
    invoke: unknown[];
  };
  const hasWayOut = (node: Node | undefined): boolean =>
    node !== undefined &&
    (Object.keys(node.on).length > 0 ||
      node.after.length > 0 ||
      node.invoke.length > 0 ||
      hasWayOut(node.parent));
  return (getStateNodes(machine.root) as unknown as Node[])
    .filter((node) => node.type === 'atomic' && !hasWayOut(node))
    .map((node) => node.id);
}

function reachedIds(snapshots: AnyMachineSnapshot[]): string[] {
  const ids = new Set<string>();
  for (const snapshot of snapshots) {
    for (const node of (snapshot as { _nodes: { id: string; type: string }[] })._nodes) {
      if (node.type === 'atomic' || node.type === 'final') ids.add(node.id);
    }
  }
  return [...ids].sort();
}

// Paths are told apart by state value plus only the context that guards read; the rest
// (attempt counters, growing reply text) would make the graph infinite.
function explore(
  machine: AnyStateMachine,
  input: unknown,
  events: AnyEventObject[],
  guardContext: (context: Record<string, unknown>) => unknown = () => null,
) {
  // An actor's done and error events can only happen while that actor runs.
  const possible = (snapshot: AnyMachineSnapshot) =>
    events.filter((event) => {
      const actorId = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(event.type)?.[1];
      return !actorId || actorId in (snapshot as { children: object }).children;
    });
  const paths = getShortestPaths(machine, {
    input,
    events: possible as never,
    serializeState: (snapshot) =>
      JSON.stringify([
        (snapshot as AnyMachineSnapshot & { value: unknown }).value,
        guardContext((snapshot as { context: Record<string, unknown> }).context),
      ]),
  });
  return paths.map((path) => path.state as AnyMachineSnapshot);
}

describe('state paths', () => {
  it('authPopupMachine: every state is reachable and none is a dead end', () => {
    const snapshots = explore(
      authPopupMachine,
      {
        client: {},
        platform: createFakePlatform(),
        storeUserInfo: vi.fn(),
        storeRegistration: vi.fn(),
        discord: { clientId: 'c', redirectUri: 'r' },
      },
      [
        { type: 'OPEN', mode: AUTH_MODE.signUp },
        { type: 'OPEN', mode: AUTH_MODE.signIn },
        { type: 'SWITCH_MODE' },
        { type: 'CHANGE_EMAIL', value: 'a@b.c' },
        { type: 'CHANGE_PASSWORD', value: 'pw' },
        { type: 'SUBMIT' },
        { type: 'GOOGLE', credential: 'jwt' },
        { type: 'DISCORD' },
        { type: 'CLOSE' },
        done('register', { verifyTicket: 'tk' }),
        done('login', USER),
        done('loginGoogle', USER),
        failed('register'),
        failed('login'),
        failed('loginGoogle'),
      ],
      (context) => [context.mode, context.email !== '', context.password !== ''],
    );
    expect(reachedIds(snapshots)).toEqual(leafIds(authPopupMachine));
    // No final states: the popup lives as long as the page, and every state has a way out.
    expect(snapshots.every((snapshot) => snapshot.status === 'active')).toBe(true);
    expect(getStateNodes(authPopupMachine.root).filter((node) => node.type === 'final')).toEqual(
      [],
    );
    expect(deadEnds(authPopupMachine)).toEqual([]);
  });

  it('verificationMachine: every state is reachable and each final state is sane', () => {
    const platform = { reload: vi.fn() };
    const storeUserInfo = vi.fn();
    const snapshots = explore(
      verificationMachine,
      { client: {}, email: 'a@b.c', verifyTicket: 'tk', storeUserInfo, platform },
      [
        { type: 'STOP' },
        done('checkStatus', { verified: false, userInfo: null }),
        done('checkStatus', { verified: true, userInfo: null }),
        done('checkStatus', { verified: true, userInfo: USER }),
        { type: 'xstate.after.pollInterval.verification.waiting' },
      ],
    );
    expect(reachedIds(snapshots)).toEqual(
      leafIds(verificationMachine).filter((id) => id !== 'verification.failed'),
    );
    const byState = new Map(
      snapshots.map((snapshot) => [JSON.stringify(snapshot.value), snapshot]),
    );
    for (const final of ['signedIn', 'verified', 'stopped']) {
      const snapshot = byState.get(JSON.stringify(final))!;
      expect(snapshot.status, final).toBe('done');
    }
    // The error state ends the actor with the error (see verification-machine.test.ts):
    // pure traversal cannot run the action that rethrows, so it is checked there.
    expect(leafIds(verificationMachine)).toContain('verification.failed');
    expect(deadEnds(verificationMachine)).toEqual([]);
  });

  it('chatStreamMachine: every state is reachable and none is a dead end', () => {
    const snapshots = explore(
      chatStreamMachine,
      { client: { girl: { chatSend: () => new Promise(() => {}) } }, roomId: 'r' },
      [
        { type: 'SEND', content: 'Hi' },
        { type: 'REGENERATE' },
        { type: 'RETRY' },
        { type: 'ABORT' },
        streamEvent({ type: 'reply-start', roomId: 'r', userMessage: null, messageId: 'm' }),
        streamEvent({ type: 'reply-delta', text: 'x' }),
        streamEvent({
          type: 'reply-end',
          messageId: 'm',
          finishReason: 'stop',
          usage: { promptTokens: 1, completionTokens: 1 },
          benefits: { chats: 1, goldCoins: 0, userId: 'u' },
        }),
        streamEvent({ type: 'error', message: 'x', messageId: null }),
        { type: 'STREAM.DONE' },
        { type: 'STREAM.FAILED', error: new Error('x') },
        // Refused for now (the model still loading): `waiting`, then sent again.
        {
          type: 'STREAM.FAILED',
          error: new ApiError('loading', {
            code: 5007,
            method: 'POST',
            path: '/girl/chat/send',
            status: 200,
            retryAfterMs: 1000,
          }),
        },
      ],
      (context) => [context.ended, context.userMessage !== null, context.request !== null],
    );
    expect(reachedIds(snapshots)).toEqual(leafIds(chatStreamMachine));
    expect(snapshots.every((snapshot) => snapshot.status === 'active')).toBe(true);
    expect(deadEnds(chatStreamMachine)).toEqual([]);
  });

  it('studioMachine: every state is reachable and none is a dead end', () => {
    const draft = { ...emptyMateDraft(), name: 'Nell', first_mes: 'Hi' };
    const mate = { ...draft, mateId: 'm' };
    const snapshots = explore(
      studioMachine,
      { client: {} },
      [
        { type: 'IDEA.CHANGE', idea: { idea: 'A keeper' } },
        { type: 'GENERATE' },
        { type: 'CANCEL' },
        { type: 'START_BLANK' },
        { type: 'DRAFT.CHANGE', draft },
        { type: 'REGENERATE', field: 'tagline' },
        { type: 'REGENERATE_ALL' },
        { type: 'PORTRAIT.CHANGE', portrait: { choiceId: 'c', url: 'u' } },
        { type: 'SAVE', visibility: 'private' },
        { type: 'EDIT' },
        done('generateRole', draft),
        failed('generateRole'),
        done('regenerateField', draft),
        failed('regenerateField'),
        done('saveMate', mate),
        failed('saveMate'),
        done('setPortrait', mate),
        failed('setPortrait'),
      ],
      (context) => [
        context.idea !== null && (context.idea as { idea: string }).idea !== '',
        context.draft !== null && (context.draft as { name: string }).name !== '',
        context.portrait !== null,
      ],
    );
    expect(reachedIds(snapshots)).toEqual(
      leafIds(studioMachine).filter((id) => id !== 'studio.starting'),
    );
    expect(snapshots.every((snapshot) => snapshot.status === 'active')).toBe(true);
    expect(deadEnds(studioMachine)).toEqual([]);
  });
});
