import { beforeAll, describe, expect, test } from 'vitest';
import { createApiClient, type ApiClient } from '@mates/api-client';
import type { Behaviour } from '../apps/server/test/openai-double';
import { signedInPage, journeyWithDouble } from './harness';

// Memory as a person meets it (#39): a long chat with a model of a small context, a fact from
// its second turn back in the prompt through memory, corrected in the Memory panel, and the
// correction in the next prompt.

type Turn = { role: string; content: string };
const MEMORY_ASK = 'You keep the memory of a roleplay chat';
const REPLY = 'Go on.';
const SISTER = 'My sister is called Ana.';

/**
 * A hosted model's answers: chat replies are short, and the memory writer is answered as a
 * model following its instructions would (each line of the person's a fact about them).
 */
function answer(body: Record<string, unknown>): Behaviour | undefined {
  const messages = body.messages as Turn[];
  if (!messages[0]?.content.startsWith(MEMORY_ASK)) return { kind: 'stream', pieces: [REPLY] };
  const lines = messages[1]!.content.split('\n').filter((line) => /^\[\d+\] /.test(line));
  const facts = lines
    .map((line) => /^\[(\d+)\] [^:]+: (.*)$/.exec(line)!)
    .filter((match) => match[2] !== REPLY && !match[2]!.startsWith('Small talk'))
    .map((match) => ({ text: match[2], about: 'person', from: [Number(match[1])] }));
  return {
    kind: 'stream',
    pieces: [JSON.stringify({ summary: `A chat of ${lines.length} more lines.`, facts })],
  };
}

const journey = journeyWithDouble({
  // A context of 900 tokens: about a dozen turns fit beside the card and the memories.
  LLM_CONTEXT_SIZE: '900',
  LLM_MAX_TOKENS: '100',
  WELCOME_CHATS: '100',
});
beforeAll(() => journey.model.route(answer));

/** The system turn of the model's last chat reply (not the memory writer's asks). */
function lastSystemPrompt(): string {
  const prompts = journey.model.requests
    .map((request) => request.body.messages as Turn[])
    .filter((messages) => !messages[0]!.content.startsWith(MEMORY_ASK));
  return prompts.at(-1)![0]!.content;
}

/** The turns of the model's last chat request (not the memory writer's asks). */
function lastChatPrompt(): Turn[] {
  const chats = journey.model.requests
    .map((request) => request.body.messages as Turn[])
    .filter((messages) => !messages[0]!.content.startsWith(MEMORY_ASK));
  return chats.at(-1) ?? [];
}

/** The last turn of the model's last chat request: the message it answered. */
function lastUserTurn(): string | undefined {
  return lastChatPrompt().at(-1)?.content;
}

async function waitForFact(client: ApiClient, roomId: string, text: string) {
  for (let tries = 0; tries < 300; tries += 1) {
    const { memories, writer } = await client.room.memories({ roomId });
    if (writer.state === 'idle' && memories.some((memory) => memory.content === text)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never remembered: ${text}`);
}

describe('memory in a long chat', () => {
  test('a fact from turn 2 comes back through memory after 60 turns, and a correction follows it', async () => {
    const user = await journey.server.signedInUser(`memory-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${journey.server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const [mate] = (await client.mate.recommend({ pageSize: 1 })).list;
    const { roomId } = await client.room.createRoom({ mateId: mate!.mateId });
    const send = (content: string) =>
      client.girl.chatSend({ roomId, content }, { onData: () => {} });
    await send('Hi there!');
    await send(SISTER);
    for (let turn = 3; turn <= 60; turn += 1)
      await send(`Small talk number ${turn}: the rain, the tea, the neighbours.`);
    await waitForFact(client, roomId, SISTER);

    await send('Do you remember my sister?');
    const seen = lastSystemPrompt();
    expect(seen).toContain(SISTER);
    // Through memory: turn 2 itself left the prompt long ago.
    const history = lastChatPrompt();
    expect(history.slice(1).map((turn) => turn.content)).not.toContain(SISTER);

    // The person opens the Memory panel and corrects the fact.
    const page = await signedInPage(
      journey.browser,
      journey.server,
      user,
      `/chat-detail?roomId=${roomId}`,
    );
    await page.getByRole('button', { name: 'Memory' }).click();
    const panel = page.getByRole('dialog', { name: 'Memory' });
    const item = panel.getByRole('listitem').filter({ hasText: SISTER });
    await item.getByRole('button', { name: 'Edit' }).click();
    const editor = panel.getByRole('textbox', { name: 'Edit the memory' });
    await editor.fill('My sister is called Inés, and she sails.');
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('My sister is called Inés, and she sails.').waitFor();
    // What the mate saw for its last reply, part by part.
    await panel.getByRole('button', { name: /sees$/ }).click();
    const view = page.getByRole('dialog', { name: /sees$/ });
    await view.getByText('Recalled memories').waitFor();
    await view.getByText(/older messages did not fit and are left out/).waitFor();
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    await page.getByRole('textbox', { name: 'Message' }).fill('What is her name again?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('log').getByText('What is her name again?').waitFor();
    await expect
      .poll(() => lastSystemPrompt())
      .toContain('My sister is called Inés, and she sails.');
    expect(lastSystemPrompt()).not.toContain(SISTER);
    await page.context().close();
  }, 180_000);

  test('a branch from turn 10 remembers its own path, not what the other path said after it', async () => {
    const user = await journey.server.signedInUser(`branch-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${journey.server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const [mate] = (await client.mate.recommend({ pageSize: 1 })).list;
    const { roomId } = await client.room.createRoom({ mateId: mate!.mateId });
    const send = (content: string) =>
      client.girl.chatSend({ roomId, content }, { onData: () => {} });
    const BROTHER = 'My brother is called Teo.';
    const DOG = 'I adopted a dog named Rex.';
    const SMALL_TALK = 'the rain, the tea, the neighbours.';
    await send('Hi there!');
    await send(BROTHER);
    for (let turn = 3; turn <= 60; turn += 1)
      await send(turn === 30 ? DOG : `Small talk number ${turn}: ${SMALL_TALK}`);
    await waitForFact(client, roomId, DOG);

    const page = await signedInPage(
      journey.browser,
      journey.server,
      user,
      `/chat-detail?roomId=${roomId}`,
    );
    const log = page.getByRole('log');
    const turn10 = `Small talk number 10: ${SMALL_TALK}`;
    while (!(await log.getByText(turn10, { exact: true }).isVisible())) {
      await page.getByRole('button', { name: 'Show earlier messages' }).click();
      await page.waitForTimeout(200);
    }
    const message = log
      .locator('*', { has: page.getByText(turn10, { exact: true }) })
      .filter({ has: page.getByRole('button', { name: 'Branch from here' }) })
      .last();
    await message.getByRole('button', { name: 'Branch from here' }).click();
    await page.waitForURL((url) => !url.href.includes(roomId));
    // The branch's own chat, which ends at turn 10: on a loaded machine the chat left stays a
    // moment after the address changes, and what was typed in its composer went with it.
    await expect
      .poll(() => log.getByText(`Small talk number 60: ${SMALL_TALK}`, { exact: true }).count(), {
        timeout: 15_000,
      })
      .toBe(0);
    await log.getByText(turn10, { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Do I have any pets?');
    await page.getByRole('button', { name: 'Send' }).click();
    await log.getByText('Do I have any pets?').waitFor();
    await expect.poll(() => lastUserTurn()).toBe('Do I have any pets?');
    const prompt = lastChatPrompt()
      .map((turn) => turn.content)
      .join('\n');
    // Its own path: turn 2 (in its history or its memory), nothing from turns 11 to 60.
    expect(prompt).toContain(BROTHER);
    expect(prompt).toContain(turn10);
    expect(prompt).not.toContain('Rex');
    expect(prompt).not.toContain('Small talk number 11:');
    // The first path is still there, whole.
    const first = await client.room.branches({ roomId });
    expect(first.branches).toHaveLength(2);
    const kept = await client.room.roomInfo({ roomId, pageSize: 100 });
    expect(kept.messages.some((m) => m.content === DOG)).toBe(true);
    await page.context().close();
  }, 180_000);
});
