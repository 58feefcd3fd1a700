import { describe, expect, it } from 'vitest';
import { createAvatar } from '@dicebear/core';
import { lorelei } from '@dicebear/collection';
import { portraitSvg } from '../src/seed/portraits';
import { SEED_MATES } from '../src/seed/seed';

// Issue #19: seeded portraits look like their mate's gender: the vampire Sable had a beard.
/** The markup a Lorelei beard adds to a face (both of the style's beards). */
function beardMarks(): string[] {
  return (['variant01', 'variant02'] as const).map((beard) => {
    const bare = createAvatar(lorelei, { seed: 'probe', beardProbability: 0 }).toString();
    const bearded = createAvatar(lorelei, {
      seed: 'probe',
      beard: [beard],
      beardProbability: 100,
    }).toString();
    // The first stretch of the bearded face that the bare one lacks.
    let start = 0;
    while (bare[start] === bearded[start]) start += 1;
    return bearded.slice(start, start + 60);
  });
}

describe('seeded portraits', () => {
  it('give no woman a beard', async () => {
    const marks = beardMarks();
    expect(marks.every((mark) => mark.length === 60)).toBe(true);
    const women = SEED_MATES.filter((mate) => mate.gender === 'female');
    expect(women.map((mate) => mate.name)).toContain('Sable');
    for (const mate of women) {
      const svg = await portraitSvg('lorelei', mate.name, 'female');
      for (const mark of marks) expect(svg, mate.name).not.toContain(mark);
    }
  });

  it('draw the same face for the same mate every time, and another for another gender', async () => {
    const man = await portraitSvg('lorelei', 'Sir Gideon Marsh', 'male');
    expect(await portraitSvg('lorelei', 'Sir Gideon Marsh', 'male')).toBe(man);
    expect(await portraitSvg('lorelei', 'Sir Gideon Marsh', 'female')).not.toBe(man);
    expect(await portraitSvg('lorelei', 'Sir Gideon Marshall', 'male')).not.toBe(man);
  });
});
