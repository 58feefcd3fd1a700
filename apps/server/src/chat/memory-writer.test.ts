import { describe, expect, it } from 'vitest';
import { ownerNamed, readMemories } from './memory-writer';

const window = [
  { id: 'm1', position: 5 },
  { id: 'm2', position: 6 },
  { id: 'm3', position: 7 },
];

describe('readMemories', () => {
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
