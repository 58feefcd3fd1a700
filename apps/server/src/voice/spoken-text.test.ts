import { describe, expect, it } from 'vitest';
import { openInline, spokenText } from './spoken-text';

describe('spokenText', () => {
  it('leaves out stage directions written between single asterisks', async () => {
    expect(await spokenText('*smiles* Hello there. *waves slowly* How are you?')).toBe(
      'Hello there. How are you?',
    );
  });

  it('reads the words of bold, underscore emphasis, headings, lists and quotes, not their marks', async () => {
    expect(
      await spokenText('# Plans\n\nI **really** _love_ this:\n\n- tea\n- rain\n\n> quiet'),
    ).toBe('Plans\nI really love this:\ntea\nrain\nquiet');
  });

  it('says the numbers of a numbered list, as the bubble shows them', async () => {
    expect(await spokenText('Two choices:\n\n1. stay\n2. go')).toBe('Two choices:\n1. stay\n2. go');
    // A "1." at a line's start within a paragraph begins such a list too.
    expect(await spokenText('I counted to\n1. Then stopped.')).toBe(
      'I counted to\n1. Then stopped.',
    );
    expect(await spokenText('3. three\n4. four')).toBe('3. three\n4. four');
  });

  it('reads a link as its text and skips pictures and raw HTML', async () => {
    expect(
      await spokenText('See [my garden](https://example.com/g) ![a rose](/media/r.png) <b>now</b>'),
    ).toBe('See my garden now');
  });

  it('reads a table as the bubble shows it: row by row, its cells one after another', async () => {
    expect(
      await spokenText(
        'Your week:\n\n| Day | Plan | Hours |\n| --- | --- | ---: |\n| Monday | **Library** | 4 |\n| Tuesday | ~~Market~~ Rest | 0 |',
      ),
    ).toBe('Your week:\nDay, Plan, Hours\nMonday, Library, 4\nTuesday, Market Rest, 0');
  });

  it('reads code without its fences or backticks', async () => {
    expect(await spokenText('Run `ls` then:\n\n```sh\necho hi\n```')).toBe('Run ls then:\necho hi');
  });

  it('answers nothing when a message is only actions', async () => {
    expect(await spokenText('*nods* *smiles*')).toBe('');
  });
});

describe('openInline', () => {
  it('holds a sentence that begins a stage direction or a link until one closes it', () => {
    expect(openInline('*She smiles softly. ')).toBe(true);
    expect(openInline('*She smiles softly. She leans closer.* ')).toBe(false);
    expect(openInline('Read [the docs. ')).toBe(true);
    expect(openInline('Read [the docs. Really](https://example.com/a')).toBe(true);
    expect(openInline('Read [the docs. Really](https://example.com/a) today.')).toBe(false);
  });

  it('does not hold arithmetic, bold words or closed brackets', () => {
    expect(openInline('It is 5 * 3, so 15. ')).toBe(false);
    expect(openInline('It was **very** good. ')).toBe(false);
    expect(openInline('See note [1] below. ')).toBe(false);
    expect(openInline('*waves* Hi there. ')).toBe(false);
  });
});
