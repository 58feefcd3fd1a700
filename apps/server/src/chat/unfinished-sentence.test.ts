import { describe, expect, it } from 'vitest';
import { withoutUnfinishedSentence } from './unfinished-sentence';

describe('a reply cut off by its length', () => {
  it('ends at its last whole sentence', () => {
    expect(withoutUnfinishedSentence('He smiled. She turned to the window and', 'en')).toBe(
      'He smiled.',
    );
    expect(withoutUnfinishedSentence('Hi! How are you? I was', 'en')).toBe('Hi! How are you?');
    expect(withoutUnfinishedSentence('"Hello there." She turned to the', 'en')).toBe(
      '"Hello there."',
    );
    expect(withoutUnfinishedSentence('*smiles* Hello.\n\n*She turns to', 'en')).toBe(
      '*smiles* Hello.',
    );
    expect(withoutUnfinishedSentence('“Be careful.” She turned to the', 'en')).toBe(
      '“Be careful.”',
    );
    expect(withoutUnfinishedSentence('Lo dijo. «Ten cuidado.» Y luego', 'es')).toBe(
      'Lo dijo. «Ten cuidado.»',
    );
    expect(withoutUnfinishedSentence('彼は笑った。彼女は窓の', 'ja')).toBe('彼は笑った。');
    expect(withoutUnfinishedSentence('Hola. ¿Qué tal? Yo estaba', 'es')).toBe('Hola. ¿Qué tal?');
  });

  it("keeps an action's closing mark, and closes an action it would leave open", () => {
    expect(withoutUnfinishedSentence('*He smiled.* She turned to', 'en')).toBe('*He smiled.*');
    expect(withoutUnfinishedSentence('*She walks over. She sits and', 'en')).toBe(
      '*She walks over.*',
    );
  });

  it('keeps a reply whose last sentence is whole, or that is one sentence', () => {
    expect(withoutUnfinishedSentence('He smiled. She turned away.', 'en')).toBe(
      'He smiled. She turned away.',
    );
    expect(withoutUnfinishedSentence('He smiled. "Wait…"', 'en')).toBe('He smiled. "Wait…"');
    expect(withoutUnfinishedSentence('Okay so I was thinking about 3.5 million and', 'en')).toBe(
      'Okay so I was thinking about 3.5 million and',
    );
  });
});
