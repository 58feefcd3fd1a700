import { describe, expect, it } from 'vitest';
import { mentionedIn, nextSpeaker, planTurn, type TurnMember } from './group-turns';

const member = (mateId: string, name: string, extra: Partial<TurnMember> = {}): TurnMember => ({
  mateId,
  name,
  muted: false,
  talkativeness: 0.5,
  ...extra,
});
const LYRA = member('lyra', 'Lyra Moonwhisper');
const KAI = member('kai', 'Kai');
const NOOR = member('noor', 'Noor Élan');
const GROUP = [LYRA, KAI, NOOR];
/** A lot that always draws `value`. */
const always = (value: number) => () => value;

describe('mentionedIn', () => {
  it('finds members by whole name or first name, in the order named, any case or accent', () => {
    expect(mentionedIn('noor elan, and you KAI?', GROUP)).toEqual(['noor', 'kai']);
    expect(mentionedIn('@lyra what do you think', GROUP)).toEqual(['lyra']);
    expect(mentionedIn('Lyra Moonwhisper!', GROUP)).toEqual(['lyra']);
  });

  it('does not take a name inside another word', () => {
    expect(mentionedIn('Kaiser rolls and lyrical songs', GROUP)).toEqual([]);
  });

  it('finds a member by any word of its name but its titles and articles', () => {
    const oracle = member('oracle', 'The Oracle');
    const captain = member('ione', 'Captain Ione Vask');
    const doctor = member('mira', 'Dr. Mira Solberg');
    const group = [oracle, captain, doctor];
    expect(mentionedIn('The captain said the doctor was late.', group)).toEqual([]);
    expect(mentionedIn('Ask Vask, then Solberg, then the oracle.', group)).toEqual([
      'ione',
      'mira',
      'oracle',
    ]);
  });

  it('takes a name that is an everyday word ("Will", "Hope") only as a name is written', () => {
    const group = [member('will', 'Will'), member('hope', 'Hope Marlow'), LYRA];
    expect(mentionedIn('I will go, I hope.', group)).toEqual([]);
    expect(mentionedIn('And you, Will? Ask HOPE too.', group)).toEqual(['will', 'hope']);
    expect(mentionedIn('@hope and @will, come.', group)).toEqual(['hope', 'will']);
    // A whole name of more than one word is a name however it is written.
    expect(mentionedIn('hope marlow, hi', group)).toEqual(['hope']);
  });

  it('takes such a name written with its accents ("Ángel") as it takes it without', () => {
    const group = [member('angel', 'Ángel'), member('rose', 'Rosé Park'), LYRA];
    expect(mentionedIn('Ángel, ¿qué opinas?', group)).toEqual(['angel']);
    expect(mentionedIn('Y tú, ÁNGEL? Rosé también.', group)).toEqual(['angel', 'rose']);
    expect(mentionedIn('Angel, come.', group)).toEqual(['angel']);
    expect(mentionedIn('@ángel, hi', group)).toEqual(['angel']);
    expect(mentionedIn('An angel sang of a rose.', group)).toEqual([]);
  });

  it('reads such a word opening a sentence before "you", "I", "we"… as the word ("Will you…")', () => {
    const group = [member('will', 'Will'), member('hope', 'Hope'), member('may', 'May'), LYRA];
    expect(mentionedIn('Will you come? Hope you can. May I sit?', group)).toEqual([]);
    expect(mentionedIn('Lyra, stay.\nWill we go?', group)).toEqual(['lyra']);
    // Said to them, or of them, they are named still.
    expect(mentionedIn('Will, you come. Hope said no.', group)).toEqual(['will', 'hope']);
    expect(mentionedIn('Will you come, May?', group)).toEqual(['may']);
    expect(mentionedIn('Will you come? And you, Will?', group)).toEqual(['will']);
  });

  it('takes a word two members share for neither: their whole names still name them', () => {
    const group = [member('kai-t', 'Kai Tanaka'), member('kai-r', 'Kai Rivers'), LYRA];
    expect(mentionedIn('Kai, what do you think?', group)).toEqual([]);
    expect(mentionedIn('Rivers first, then Kai Tanaka.', group)).toEqual(['kai-r', 'kai-t']);
  });
});

describe('planTurn', () => {
  it('asks the named members first, muted ones too, then the list in order', () => {
    const group = [LYRA, { ...KAI, muted: true }, NOOR];
    expect(planTurn(group, 'list', 'Kai, pass the salt')).toEqual(['kai', 'lyra', 'noor']);
    expect(planTurn(group, 'list', 'Hello all')).toEqual(['lyra', 'noor']);
  });

  it('in manual order asks only those named', () => {
    expect(planTurn(GROUP, 'manual', 'Noor?')).toEqual(['noor']);
    expect(planTurn(GROUP, 'manual', 'Hello all')).toEqual([]);
  });

  it('in natural order draws by talkativeness, and someone always answers', () => {
    const chatty = [
      member('a', 'Ann', { talkativeness: 1 }),
      member('b', 'Bo', { talkativeness: 0 }),
    ];
    expect(planTurn(chatty, 'natural', 'Hi', always(0.5))).toEqual(['a']);
    const shy = [member('a', 'Ann', { talkativeness: 0 }), member('b', 'Bo', { talkativeness: 0 })];
    expect(planTurn(shy, 'natural', 'Hi', always(0.6))).toEqual(['b']);
    expect(planTurn(shy, 'natural', 'Bo?', always(0.6))).toEqual(['b']);
  });

  it('lets nobody answer on their own when every member is muted', () => {
    const muted = GROUP.map((m) => ({ ...m, muted: true }));
    expect(planTurn(muted, 'natural', 'Hello?')).toEqual([]);
    expect(planTurn(muted, 'list', 'Hello, Kai?')).toEqual(['kai']);
  });
});

describe('nextSpeaker', () => {
  it('goes round the list after the last speaker, past muted members', () => {
    const group = [LYRA, { ...KAI, muted: true }, NOOR];
    expect(nextSpeaker(group, 'list', 'lyra')).toBe('noor');
    expect(nextSpeaker(group, 'manual', 'noor')).toBe('lyra');
    expect(nextSpeaker(group, 'list', null)).toBe('lyra');
  });

  it('in natural order never picks the last speaker when another can speak', () => {
    for (const draw of [0, 0.3, 0.6, 0.99])
      expect(nextSpeaker(GROUP, 'natural', 'kai', always(draw))).not.toBe('kai');
    expect(nextSpeaker([KAI], 'natural', 'kai')).toBe('kai');
  });

  it('lets muted members speak when all are muted, and nobody in an empty group', () => {
    const muted = GROUP.map((m) => ({ ...m, muted: true }));
    expect(nextSpeaker(muted, 'list', 'lyra')).toBe('kai');
    expect(nextSpeaker([], 'list', null)).toBeNull();
  });
});
