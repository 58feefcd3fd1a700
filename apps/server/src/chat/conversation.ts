import type { Kysely } from 'kysely';
import type { Database, RoomTable, UserTable } from '../db/schema';
import {
  buildPrompt,
  turnMarkTokens,
  type BuiltPrompt,
  type PromptGroup,
  type PromptModel,
  type PromptSource,
} from './prompt';
import {
  cardExtraOf,
  conversationRows,
  PROMPT_FIRST_READ,
  type KnownRows,
} from './conversation-repository';
import { promptMemory } from './recall';
import { cardExtrasOf } from '../cards/card-extras';

/**
 * A conversation read for a prompt: whether its history goes back to the room's start, and
 * the position of each stored message of the history (a turn not yet stored has none).
 */
export type Conversation = Omit<PromptSource, 'language'> & {
  wholeHistory: boolean;
  positions: number[];
};

/** A group reply's prompt: who answers, the names of every member, and the scene. */
export interface GroupPromptContext extends PromptGroup {
  /** The member answering. */
  speakerId: string;
  /** Every member's name, past ones included, by mate id. */
  names: Map<string, string>;
}

/** How many of the last messages pick the memories most relevant to the reply. */
const RECALL_FROM = 3;

/**
 * A room's mate (in a group, `group`'s speaker), persona, memories and its `recent` newest messages (without the reply being
 * written, `replyId`, if any), then `upcoming` (a new message not stored yet), for the prompt;
 * see {@link fittingTurns} for how many to ask for.
 */
export async function loadConversation(
  db: Kysely<Database>,
  room: RoomTable,
  user: UserTable,
  replyId: string | null,
  recent: number,
  upcoming?: string,
  group?: GroupPromptContext,
  /** What the caller read already: the answering mate's row, the room's newest words. */
  known?: KnownRows,
): Promise<Conversation> {
  const { mate, persona, words, recall } = await conversationRows(
    db,
    room,
    recent,
    group?.speakerId,
    known,
  );
  if (!mate) throw new Error(`room ${room.id}: its mate ${room.mate_id} is gone`);
  // Its card's other fields (a lorebook, instructions), read and parsed once for the mate as saved.
  const extras = await cardExtrasOf(mate, () => cardExtraOf(db, mate.id));
  const stored = words
    .filter((message) => message.id !== replyId && message.content.trim() !== '')
    .reverse();
  const history: PromptSource['history'] = stored.map((message) => ({
    role: message.role === 'user' ? 'user' : 'mate',
    content: message.content,
    // In a group, another member's words say whose they are.
    ...(group &&
      message.role !== 'user' &&
      message.speaker_id !== group.speakerId && {
        speaker: group.names.get(message.speaker_id ?? '') ?? mate.name,
      }),
  }));
  if (upcoming !== undefined) history.push({ role: 'user', content: upcoming });
  return {
    mate,
    persona: persona ?? null,
    userName: user.nickname,
    history,
    ...(group && { group: { scenario: group.scenario, others: group.others } }),
    instructions: extras.instructions,
    lore: extras.lore,
    // A branch picks as its chat did.
    seed: room.family_id ?? room.id,
    ...(recall && {
      memory: promptMemory(
        recall,
        history.slice(-RECALL_FROM).map((turn) => turn.content),
      ),
    }),
    wholeHistory: words.length < recent,
    positions: stored.map((message) => message.position),
  };
}

/** A prompt built by {@link fittingTurns}, and where its history starts in the room. */
export interface FittedPrompt extends BuiltPrompt {
  /**
   * The position of the oldest stored message in the prompt's history (those before it were
   * left out: a summary, once written, tells what they said); when only a new message not
   * stored yet is in it, the position after the newest stored one (all of them were left out);
   * `null` when the room has no stored message.
   */
  oldestKept: number | null;
}

/**
 * The share of the history's room a prompt leaves free when its chat no longer fits and the
 * start of its history moves on (see {@link fittingTurns}).
 */
export const HISTORY_SLACK = 0.25;

/** What {@link fittingTurns} may know of the room's last prompt. */
export interface PromptHold {
  /** Where the room's last prompt's history started (its `oldestKept`), if it is known. */
  heldFrom?: number | null;
  /** The room's last prompt's system turn, if it is known. */
  heldSystem?: string;
}

/** What `prompt`, a room's last, tells the room's next one (see {@link fittingTurns}). */
export function promptHold(prompt: FittedPrompt | undefined): PromptHold {
  return prompt ? { heldFrom: prompt.oldestKept, heldSystem: prompt.turns[0]?.content } : {};
}

/**
 * A prompt ({@link buildPrompt}) from a room's newest messages only: `read(recent)`
 * reads the conversation with its `recent` newest messages, first `PROMPT_FIRST_READ`, and four
 * times more while every one of them fits the model's context and the room has older ones. A
 * room of thousands of messages costs what a room of the few that fit does: reading all of
 * them took 14 ms of the event loop at each send for 5,000 (#20).
 *
 * Once a chat no longer fits, its history starts where the room's last prompt's did
 * (`hold.heldFrom`) for as long as that still fits; when it no longer does, it moves on past
 * {@link HISTORY_SLACK} of the history's room more than it must (see `steadyStart`: not when
 * the system turn changed since the last prompt, which breaks the prompt's start anyway). A
 * prompt then begins as the one before it did for several sends: a model that keeps what it
 * read (llama.cpp's sequences, a provider's prompt cache) reads only the new words, where
 * moving the start by a message or two at every send made it read the whole history again at
 * each one.
 */
export async function fittingTurns(
  read: (recent: number) => Promise<PromptSource & { wholeHistory: boolean; positions?: number[] }>,
  model: PromptModel,
  replyTokens: number,
  hold: PromptHold = {},
): Promise<FittedPrompt> {
  for (let recent = PROMPT_FIRST_READ; ; recent *= 4) {
    const source = await read(recent);
    const built = buildPrompt(source, model, replyTokens);
    // Some of the history left out means no older message fits either.
    const { leftOut } = built.report;
    if (source.wholeHistory || leftOut > 0) {
      const positions = source.positions ?? [];
      const start = leftOut === 0 ? 0 : steadyStart(built, positions, model, hold);
      const steady =
        start === leftOut
          ? built
          : (() => {
              const later = buildPrompt(
                { ...source, history: source.history.slice(start) },
                model,
                replyTokens,
              );
              return {
                ...later,
                report: { ...later.report, leftOut: start + later.report.leftOut },
              };
            })();
      const kept = steady.report.leftOut;
      // A new message that alone fills the prompt left every stored one out.
      const oldestKept = positions.length === 0 ? null : (positions[kept] ?? positions.at(-1)! + 1);
      return { ...steady, oldestKept };
    }
  }
}

/**
 * Where a prompt whose chat does not fit starts its history, as an index of its source's
 * history (at least `built`'s own start, the most that fits). Where the room's last prompt
 * started, while that fits and leaves at most {@link HISTORY_SLACK} of the history's tokens
 * free; else as far on as leaves that share free (the turn answered always kept). But where the
 * system turn is not the last prompt's (the lore called by the newest messages changed, the
 * summary, a pinned memory, or a new fact while all fit), the prompt differs from its start
 * anyway: as much history as fits. Facts chosen for each message (where not all fit) come after
 * the history and change nothing here.
 */
function steadyStart(
  built: BuiltPrompt,
  positions: number[],
  model: PromptModel,
  hold: PromptHold,
): number {
  const { leftOut, history } = built.report;
  const { heldFrom, heldSystem } = hold;
  if (heldSystem !== undefined && heldSystem !== built.turns[0]!.content) return leftOut;
  const turns = history.turns.length;
  let tokens = history.tokens;
  const target = Math.floor(history.tokens * (1 - HISTORY_SLACK));
  let start = 0;
  // Counted as `buildPrompt` counts a turn: its text and the template's marks around it.
  while (start < turns - 1 && tokens > target) {
    tokens -= model.countTokens(history.turns[start]!.content) + turnMarkTokens(model);
    start += 1;
  }
  if (heldFrom !== null && heldFrom !== undefined) {
    const held = positions.findIndex((position) => position >= heldFrom);
    if (held >= leftOut && held <= leftOut + start) return held;
  }
  return leftOut + start;
}
