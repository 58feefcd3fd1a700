import { describe, expect, it } from 'vitest';
import { fitWindow, ownerNamed, readMemories } from './memory-writer';

const window = [
  { id: 'm1', position: 5 },
  { id: 'm2', position: 6 },
  { id: 'm3', position: 7 },
];

describe('readMemories', () => {
  it('drops U+0000 from what the model wrote (PostgreSQL cannot store it in text)', () => {
    const read = readMemories(
      JSON.stringify({
        summary: 'They\u0000 met.',
        facts: [{ text: 'Ana\u0000 sings.' }, { text: '\u0000' }],
      }),
      window,
    );
    expect(read.summary).toBe('They met.');
    expect(read.facts.map((fact) => fact.text)).toEqual(['Ana sings.']);
  });

  it('turns message numbers back into messages, dropping those outside the window', () => {
    const read = readMemories(
      JSON.stringify({
        summary: '  They met.  ',
        facts: [
          { text: ' Her sister is Ana. ', about: 'person', from: [3, 1, 1, 9, 0, 1.5] },
          { text: 'The ship sank.', about: 'weather', from: 'all' },
          { text: '   ', about: 'story', from: [1] },
          'not a fact',
        ],
      }),
      window,
    );
    expect(read).toEqual({
      summary: 'They met.',
      facts: [
        {
          text: 'Her sister is Ana.',
          about: 'person',
          from: [window[0], window[2]],
          mateId: null,
        },
        // An unknown subject is the story's; no sources means the whole window (see writer).
        { text: 'The ship sank.', about: 'story', from: [], mateId: null },
      ],
    });
  });

  it('keeps a memory within its length', () => {
    const read = readMemories(
      JSON.stringify({
        summary: 's'.repeat(5000),
        facts: [{ text: 'f'.repeat(5000), about: 'story', from: [] }],
      }),
      window,
    );
    expect(read.summary).toHaveLength(1000);
    expect(read.facts[0]!.text).toHaveLength(1000);
  });

  it('refuses an answer that is not memories, without quoting it', () => {
    for (const answer of ['I would rather not.', '{"summary": "x"}', '[]', ''])
      expect(() => readMemories(answer, window)).toThrow(/was not memories as JSON/);
  });
});

describe('ownerNamed', () => {
  const owners = [
    { mateId: 'lyra', name: 'Lyra Moonwhisper' },
    { mateId: 'kai', name: 'Kai Tanaka' },
    { mateId: 'ione', name: 'Captain Ione Vask' },
    { mateId: 'kai-2', name: 'Kai Ríos' },
  ];

  it('finds a member by its whole name or a word of it, case and accents aside', () => {
    expect(ownerNamed('Lyra Moonwhisper', owners)).toBe('lyra');
    expect(ownerNamed('  lyra  ', owners)).toBe('lyra');
    expect(ownerNamed('Ione', owners)).toBe('ione');
    expect(ownerNamed('Kai Tanaka', owners)).toBe('kai');
    expect(ownerNamed('KAI RIOS', owners)).toBe('kai-2');
  });

  it('gives the group what no one member is named for', () => {
    for (const said of ['everyone', 'Kai', 'Old Tom', '', 42, null, undefined, ['Lyra']])
      expect(ownerNamed(said, owners)).toBeNull();
  });

  it('reads whose each fact is, unknown names shared', () => {
    const read = readMemories(
      JSON.stringify({
        summary: 'They met.',
        facts: [
          { text: 'A.', about: 'story', from: [1], mate: 'Lyra' },
          { text: 'B.', about: 'story', from: [1], mate: 'everyone' },
          { text: 'C.', about: 'story', from: [1], mate: 'Nobody' },
          { text: 'D.', about: 'story', from: [1] },
        ],
      }),
      window,
      owners,
    );
    expect(read.facts.map((fact) => fact.mateId)).toEqual(['lyra', null, null, null]);
  });
});

describe('fitWindow', () => {
  // Words count one token each: a reply of many short words (Chinese or emoji, say), then
  // long ones, has most of its tokens at its start.
  const model = {
    contextSize: 600,
    countTokens: (text: string) => text.split(/\s+/).filter(Boolean).length,
  };

  it('cuts a message whose tokens are mostly at its start to what the context holds', () => {
    const start = Array.from({ length: 500 }, (_, i) => `${i % 10}`).join(' ');
    const end = Array.from({ length: 100 }, () => 'x'.repeat(50)).join(' ');
    const kept = fitWindow(model, [{ content: `${start} ${end}` }, { content: 'Short.' }], '', {
      char: 'Lyra',
      user: 'Ada',
    });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept[0]!.content.startsWith('0 1 2 3')).toBe(true);
    // Room is left for the instructions and the answer (a third of the context).
    const used = kept.reduce((sum, message) => sum + model.countTokens(message.content) + 8, 0);
    expect(used).toBeLessThanOrEqual(model.contextSize - model.contextSize / 3);
  });
});

describe('fitWindow, in emoji', () => {
  // One token for each UTF-16 unit: wherever the cut falls, it could fall inside an emoji.
  const model = { contextSize: 301, countTokens: (text: string) => text.length };

  it('never keeps half of an emoji', () => {
    const kept = fitWindow(model, [{ content: '🌊'.repeat(400) }], '', {
      char: 'Lyra',
      user: 'Ada',
    });
    expect(kept[0]!.content.length).toBeGreaterThan(1);
    expect(kept[0]!.content).not.toMatch(/\p{Cs}/u);
  });
});
