import { describe, expect, it } from 'vitest';
import {
  buildPrompt,
  buildTurns,
  fillMacros,
  languageName,
  MEMORY_SHARE,
  systemPrompt,
  type PromptSource,
} from './prompt';
import { greetingVersions } from './greeting';

const SOURCE: PromptSource = {
  mate: {
    name: 'Lyra',
    description: '{{char}} keeps a library.',
    personality: 'patient',
    scenario: '{{user}} visits at dusk.',
    mes_example: '<START>\n{{user}}: Hi\n{{char}}: Hello.',
    system_prompt: '',
  },
  persona: { name: 'Captain', description: 'A tired starship captain.' },
  userName: 'ada',
  language: 'es',
  history: [
    { role: 'mate', content: 'Welcome, {{user}}.' },
    { role: 'user', content: 'Hello {{char}}!' },
  ],
};
const wordModel = {
  contextSize: 200,
  countTokens: (text: string) => text.split(/\s+/).filter(Boolean).length,
};

describe('prompt', () => {
  it('builds a system prompt from the card, the persona and the language', () => {
    const text = systemPrompt(SOURCE);
    expect(text).toContain('You are Lyra in a roleplay chat with Captain.');
    expect(text).toContain('About Lyra: Lyra keeps a library.');
    expect(text).toContain('Scenario: Captain visits at dusk.');
    expect(text).toContain('Captain: Hi\nLyra: Hello.');
    expect(text).toContain('About Captain: A tired starship captain.');
    expect(text.endsWith('Always answer in Spanish.')).toBe(true);
    expect(text).not.toMatch(/\{\{|<START>/);
  });

  it("uses the card's own system prompt when it has one, and the user's name without a persona", () => {
    const text = systemPrompt({
      ...SOURCE,
      persona: null,
      mate: { ...SOURCE.mate, system_prompt: 'Be {{char}} for {{user}}.' },
    });
    expect(text).toBe('Be Lyra for ada.\n\nAlways answer in Spanish.');
  });

  it("puts the prompt built from the card where the card's own system prompt says {{original}}", () => {
    // Character Card V2: {{original}} stands for the system prompt the card's own replaces.
    const text = systemPrompt({
      ...SOURCE,
      persona: null,
      mate: { ...SOURCE.mate, system_prompt: 'Be brief.\n{{Original}}\nNever break character.' },
    });
    expect(text).toBe(
      [
        'Be brief.',
        "You are Lyra in a roleplay chat with ada. Stay in character; write only Lyra's words and actions, never ada's.",
        '',
        'About Lyra: Lyra keeps a library.',
        '',
        "Lyra's personality: patient",
        '',
        'Scenario: ada visits at dusk.',
        '',
        'Examples of how Lyra talks:\nada: Hi\nLyra: Hello.',
        'Never break character.',
        '',
        'Always answer in Spanish.',
      ].join('\n'),
    );
  });

  it('fills macros in any case and names languages', () => {
    expect(fillMacros('{{CHAR}} and {{User}}', { char: 'A', user: 'B' })).toBe('A and B');
    // Character Card V1's spellings, which older cards still use.
    expect(fillMacros('<BOT> waves at <USER>; <user> at <bot>.', { char: 'A', user: 'B' })).toBe(
      'A waves at B; B at A.',
    );
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese');
    expect(languageName('not a tag!')).toBe('not a tag!');
  });

  it('keeps the newest history that fits, always keeping the turn being answered', () => {
    const history = Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 ? ('user' as const) : ('mate' as const),
      content: `message number ${i} here`,
    }));
    const turns = buildTurns({ ...SOURCE, history }, wordModel, 50);
    expect(turns[0]!.role).toBe('system');
    expect(turns.at(-1)!.content).toBe('message number 39 here');
    expect(turns.length).toBeLessThan(41);
    const used = turns.reduce((sum, t) => sum + wordModel.countTokens(t.content) + 8, 0);
    expect(used).toBeLessThanOrEqual(wordModel.contextSize - 50 + 8);
    // Roles map to the model's names, in order.
    expect(
      turns
        .slice(1)
        .map((t) => t.role)
        .at(-1),
    ).toBe('user');
  });

  it('cuts a single turn that is too long to fit', () => {
    const huge = {
      role: 'user' as const,
      content: Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '),
    };
    const turns = buildTurns({ ...SOURCE, history: [huge] }, wordModel, 50);
    expect(turns).toHaveLength(2);
    expect(turns[1]!.content.endsWith('w499')).toBe(true);
    expect(wordModel.countTokens(turns[1]!.content)).toBeLessThan(200);
  });

  it('cuts a system prompt that would crowd out the conversation, keeping the language line', () => {
    const mate = {
      ...SOURCE.mate,
      description: Array.from({ length: 400 }, (_, i) => `fact${i}`).join(' '),
    };
    const turns = buildTurns({ ...SOURCE, mate }, wordModel, 50);
    expect(wordModel.countTokens(turns[0]!.content)).toBeLessThanOrEqual(
      Math.floor((200 - 50) * 0.6),
    );
    expect(turns[0]!.content.startsWith('You are Lyra')).toBe(true);
    expect(turns[0]!.content.endsWith('Always answer in Spanish.')).toBe(true);
    expect(turns.at(-1)!.content).toBe('Hello Lyra!');
  });

  it('puts memories within their share: pinned, summary, other chats in the system turn, recalled facts after the history where not all fit', () => {
    const recalled = Array.from({ length: 30 }, (_, i) => `fact number ${i} about the lighthouse`);
    const history = Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 ? ('user' as const) : ('mate' as const),
      content: `message number ${i} here`,
    }));
    const { turns, report } = buildPrompt(
      {
        ...SOURCE,
        history,
        memory: {
          pinned: ['{{user}} is allergic to cats.'],
          summary: 'They met at dusk and talked about ships.',
          acrossChats: ['Captain plays the cello.'],
          recalled,
        },
      },
      { ...wordModel, contextSize: 400 },
      50,
    );
    const system = turns[0]!.content;
    expect(system).toContain('Lyra always remembers:\n- Captain is allergic to cats.');
    expect(system).toContain('The story so far:\nThey met at dusk and talked about ships.');
    expect(system).toContain(
      'Lyra knows about Captain from other chats:\n- Captain plays the cello.',
    );
    // Recalled facts in their order, as many as fit the share, after the turn answered.
    expect(system).not.toContain('fact number');
    expect(report.recalledAfterHistory).toBe(true);
    const kept = report.memory.recalled.items;
    expect(kept).toEqual(recalled.slice(0, kept.length));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(30);
    expect(turns.at(-1)).toEqual({
      role: 'system',
      content: `Lyra also remembers:\n${kept.map((fact) => `- ${fact}`).join('\n')}`,
    });
    const memoryTokens = Object.values(report.memory).reduce((sum, part) => sum + part.tokens, 0);
    expect(memoryTokens).toBeLessThanOrEqual(Math.floor((400 - 50) * MEMORY_SHARE));
    // The history takes what is left, the turn being answered included.
    expect(turns.at(-2)!.content).toBe('message number 39 here');
    expect(report.leftOut).toBe(40 - (turns.length - 2));
    expect(report.history.turns).toEqual(turns.slice(1, -1));
  });

  describe('keeps the system turn as it was when only the facts recalled for the message change', () => {
    const prompt = (facts: string[], recalled: string[], last: string) =>
      buildPrompt(
        {
          ...SOURCE,
          history: [...SOURCE.history, { role: 'user', content: last }],
          memory: {
            pinned: ['Captain is allergic to cats.'],
            summary: null,
            acrossChats: [],
            recalled,
            newest: facts,
          },
          instructions: 'Stay in character.',
        },
        wordModel,
        50,
      );

    it('all of them in the system turn, newest first, where they all fit', () => {
      const facts = ['Captain sailed north.', 'Captain hates fog.', 'Captain keeps a logbook.'];
      const first = prompt(facts, facts, 'Where did you sail?');
      const next = prompt(facts, [...facts].reverse(), 'Is it foggy out?');
      expect(next.turns[0]).toEqual(first.turns[0]);
      expect(next.turns[0]!.content).toContain(
        `Lyra also remembers:\n${facts.map((fact) => `- ${fact}`).join('\n')}`,
      );
      expect(next.report.recalledAfterHistory).toBe(false);
      expect(next.report.memory.recalled.items).toEqual(facts);
      expect(next.turns.at(-1)).toEqual({ role: 'system', content: 'Stay in character.' });
    });

    it('those chosen for the message after the history, where not all fit', () => {
      const facts = Array.from({ length: 40 }, (_, i) => `Captain sailed to port ${i}.`);
      const first = prompt(facts, facts, 'Where did you sail?');
      const chosen = [...facts].reverse();
      const next = prompt(facts, chosen, 'Is it foggy out?');
      expect(next.turns[0]).toEqual(first.turns[0]);
      expect(next.turns[0]!.content).not.toContain('port');
      expect(next.report.recalledAfterHistory).toBe(true);
      const kept = next.report.memory.recalled.items;
      expect(kept.length).toBeGreaterThan(0);
      expect(kept).toEqual(chosen.slice(0, kept.length));
      // The facts for this message, then the card's instructions: the last thing read.
      expect(next.turns.at(-1)).toEqual({
        role: 'system',
        content: `Lyra also remembers:\n${kept.map((fact) => `- ${fact}`).join('\n')}\n\nStay in character.`,
      });
      expect(next.turns.at(-2)).toEqual({ role: 'user', content: 'Is it foggy out?' });
    });
  });

  it('keeps the end of a summary too long for its share (the latest events)', () => {
    const summary = Array.from({ length: 200 }, (_, i) => `event${i}`).join(' ');
    const { report } = buildPrompt(
      { ...SOURCE, memory: { pinned: [], summary, acrossChats: [], recalled: [] } },
      wordModel,
      50,
    );
    const [kept] = report.memory.summary.items;
    expect(kept!.startsWith('…')).toBe(true);
    expect(kept!.endsWith('event199')).toBe(true);
  });
});

describe("a card's SillyTavern macros in the prompt", () => {
  const card = {
    ...SOURCE,
    seed: 'room-1',
    mate: {
      ...SOURCE.mate,
      description:
        '{{// only for creators }}{{char}} keeps a library of {{pick::maps::poems::recipes}}.',
      system_prompt: '',
    },
    instructions: 'Answer {{random::briefly::warmly}}.{{trim}}\n',
    lore: {
      scanDepth: 3,
      tokenBudget: null,
      entries: [
        {
          keys: [{ words: ['hello'] }],
          secondaryKeys: [],
          selective: false,
          selectiveLogic: 'any',
          constant: false,
          content: 'The library opens at {{roll:1d1+8}}.',
          order: 1,
          priority: 0,
          caseSensitive: false,
        },
      ],
    },
  } satisfies PromptSource;

  it('are filled in the card, its lore and its instructions; a chat picks the same each time', () => {
    const { turns } = buildPrompt(card, wordModel, 50);
    const system = turns[0]!.content;
    expect(system).toMatch(/About Lyra: Lyra keeps a library of (maps|poems|recipes)\./);
    expect(system).not.toContain('{{');
    expect(system).toContain('The library opens at 9.');
    expect(turns.at(-1)!.content).toMatch(/^Answer (briefly|warmly)\.$/);
    for (let i = 0; i < 10; i++)
      expect(buildPrompt(card, wordModel, 50).turns[0]!.content).toBe(system);
  });

  it('are filled field by field, and not in the persona the person wrote', () => {
    const text = systemPrompt({
      ...card,
      mate: {
        ...card.mate,
        description: '{{char}} hums. {{// a note never closed',
        personality: 'calm, {{random::kind::kind}}',
      },
      persona: { name: 'Captain', description: '{{roll:d6}} {{// mine}} {{char}}' },
    });
    expect(text).toContain('About Lyra: Lyra hums. {{// a note never closed');
    expect(text).toContain("Lyra's personality: calm, kind");
    expect(text).toContain('About Captain: {{roll:d6}} {{// mine}} Lyra');
  });

  it('are not filled in what people and the mate wrote: only the names are', () => {
    const { turns } = buildPrompt(
      { ...card, history: [{ role: 'user', content: '{{user}} rolls {{roll:d6}} {{// aside}}' }] },
      wordModel,
      50,
    );
    expect(turns.find((turn) => turn.role === 'user')!.content).toBe(
      'Captain rolls {{roll:d6}} {{// aside}}',
    );
  });
});

describe("a chat's greeting with SillyTavern macros", () => {
  const mate = {
    card_extra: '{}',
    first_mes:
      '{{// note }}*{{char}} offers {{user}} {{random::tea::coffee::cocoa::juice::milk}}.*',
    alternate_greetings: JSON.stringify(['{{pick::Hi::Hey}}, {{user}}.']),
  };

  it('is filled, and filled the same again for its chat (a persona renamed finds it unchanged)', () => {
    const [greeting, alternate] = greetingVersions(
      mate,
      { char: 'Lyra', user: 'Ada' },
      false,
      'room-1',
    );
    expect(greeting).toMatch(/^\*Lyra offers Ada (tea|coffee|cocoa|juice|milk)\.\*$/);
    expect(alternate).toMatch(/^(Hi|Hey), Ada\.$/);
    for (let i = 0; i < 10; i++)
      expect(greetingVersions(mate, { char: 'Lyra', user: 'Ada' }, false, 'room-1')).toEqual([
        greeting,
        alternate,
      ]);
  });
});

describe("a card's post-history instructions", () => {
  it('go after the history as a system turn, macros filled, {{original}} taken out', () => {
    const { turns, report } = buildPrompt(
      {
        ...SOURCE,
        instructions: '{{original}}\nStay in character, {{char}}; never speak for {{user}}.',
      },
      wordModel,
      50,
    );
    const instructions = 'Stay in character, Lyra; never speak for Captain.';
    expect(turns.at(-1)).toEqual({ role: 'system', content: instructions });
    expect(turns.at(-2)).toEqual({ role: 'user', content: 'Hello Lyra!' });
    expect(report.instructions).toEqual({ text: instructions, tokens: 8 });
    // The history is the turns between the system prompt and the instructions.
    expect(report.history.turns).toEqual(turns.slice(1, -1));
  });

  it('are left out when blank, and the prompt is as without them', () => {
    const without = buildPrompt(SOURCE, wordModel, 50);
    for (const instructions of ['', ' \n ', '{{original}}']) {
      const built = buildPrompt({ ...SOURCE, instructions }, wordModel, 50);
      expect(built.turns).toEqual(without.turns);
      expect(built.report.instructions).toEqual({ text: '', tokens: 0 });
    }
  });

  it('take their room from the history, and are cut to their share when too long', () => {
    const history = Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 ? ('user' as const) : ('mate' as const),
      content: `message number ${i} here`,
    }));
    const plain = buildPrompt({ ...SOURCE, history }, wordModel, 50);
    const short = buildPrompt(
      { ...SOURCE, history, instructions: 'Be brief. '.repeat(5) },
      wordModel,
      50,
    );
    expect(short.report.history.turns.length).toBeLessThan(plain.report.history.turns.length);
    const long = buildPrompt(
      { ...SOURCE, history, instructions: `Be brief. ${'word '.repeat(500)}` },
      wordModel,
      50,
    );
    expect(long.report.instructions.text.startsWith('Be brief. word')).toBe(true);
    expect(long.report.instructions.tokens).toBeLessThanOrEqual(Math.floor((200 - 50) * 0.2));
    // The turn being answered is still there, before the instructions.
    expect(long.turns.at(-2)!.content).toBe('message number 39 here');
  });
});

describe("a group speaker's prompt", () => {
  const group = { scenario: 'A tavern.', others: [{ name: 'Kai', about: 'The cook.' }] };

  it('tells every speaker it is one of several, its own system prompt or not', () => {
    for (const system_prompt of ['', 'You are Lyra, a librarian. Be brief.']) {
      const prompt = systemPrompt({ ...SOURCE, mate: { ...SOURCE.mate, system_prompt }, group });
      expect(prompt).toContain('You are Lyra in a group roleplay chat with Captain, Kai.');
      expect(prompt).toContain('Scenario: A tavern.');
      expect(prompt).toContain('Also here:\n- Kai: The cook.');
    }
  });

  it("ends a reply where the model starts the person's line, or another member's", () => {
    expect(buildPrompt(SOURCE, wordModel, 50).stop).toEqual(['\nCaptain:']);
    const crowd = {
      scenario: '',
      others: ['Kai', 'Mo', 'Captain', 'Ivy', 'Zed'].map((name) => ({ name, about: '' })),
    };
    // The person first, each name once, four at most (OpenAI's limit).
    expect(buildPrompt({ ...SOURCE, group: crowd }, wordModel, 50).stop).toEqual([
      '\nCaptain:',
      '\nKai:',
      '\nMo:',
      '\nIvy:',
    ]);
  });

  it("gives the speaker's own replies as its turns and the others' words as named turns", () => {
    const { turns } = buildPrompt(
      {
        ...SOURCE,
        group,
        history: [
          { role: 'mate', content: 'Welcome.' },
          { role: 'mate', content: 'Stew is late.', speaker: 'Kai' },
          { role: 'user', content: 'Hello {{char}}!' },
        ],
      },
      wordModel,
      20,
    );
    expect(turns.slice(1)).toEqual([
      { role: 'assistant', content: 'Welcome.' },
      { role: 'user', content: 'Kai: Stew is late.' },
      { role: 'user', content: 'Captain: Hello Lyra!' },
    ]);
  });
});

describe('a turn too long to fit, its tokens spread unevenly', () => {
  // Words count one token each: a message of long words, then many short ones (English then
  // emoji, say), has its tokens mostly at its end.
  it('cuts the turn being answered to what is left of the context, its end kept', () => {
    const start = Array.from({ length: 100 }, () => 'x'.repeat(50)).join(' ');
    const end = Array.from({ length: 500 }, (_, i) => `${i % 10}`).join(' ');
    const { turns } = buildPrompt(
      { ...SOURCE, history: [{ role: 'user', content: `${start} ${end}` }] },
      wordModel,
      50,
    );
    const used = turns.reduce((sum, turn) => sum + wordModel.countTokens(turn.content) + 8, 0);
    expect(used).toBeLessThanOrEqual(wordModel.contextSize - 50);
    expect(turns.at(-1)!.content.endsWith(end.slice(-20))).toBe(true);
  });
});

describe('a turn cut to fit, in emoji', () => {
  // One token for each UTF-16 unit: wherever the cut falls, it could fall inside an emoji.
  const unitModel = { contextSize: 400, countTokens: (text: string) => text.length };

  it('never keeps half of an emoji', () => {
    for (const budget of [51, 52, 53]) {
      const { turns } = buildPrompt(
        { ...SOURCE, history: [{ role: 'user', content: '🌊'.repeat(300) }] },
        unitModel,
        budget,
      );
      const cut = turns.at(-1)!.content;
      expect(cut.length).toBeGreaterThan(0);
      expect(cut).not.toMatch(/\p{Cs}/u);
    }
  });
});
