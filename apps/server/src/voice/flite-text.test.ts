import { describe, expect, it } from 'vitest';
import { fliteText } from './flite-text';

describe('fliteText', () => {
  it('reads Spanish and French letters without their accents', () => {
    expect(fliteText('Voilà, señor: café naïve, œuvre, Straße, ¿qué?')).toBe(
      'Voila, senor: cafe naive, oeuvre, Strasse, que?',
    );
  });

  it('says currency signs as words after their amount', () => {
    expect(fliteText('€4.50, 12 £ and $3')).toBe('4.50 euros, 12 pounds and $3');
  });

  it('skips emoji and scripts the English voices cannot read', () => {
    expect(fliteText('Hi 🙂 日本語 Ελληνικά!')).toBe('Hi !');
  });

  it('groups very long numbers, keeps ordinary ones', () => {
    expect(fliteText('2026 and 1234567890123456')).toBe('2026 and 123 456 789 012 345 6');
  });

  it('turns typographic quotes and dashes into what Flite reads', () => {
    expect(fliteText('“Yes” — it’s… fine')).toBe('"Yes" , it\'s... fine');
  });

  // Speed is bench/speech.bench.ts's (the figure before and after); here, what they read.
  it('reads the longest runs of numbers a message holds, with or without a currency sign', () => {
    const run = '1,'.repeat(3999) + '1';
    expect(fliteText(run)).toBe(run);
    expect(fliteText(`${run} €`)).toBe(`${run} euros`);
    expect(fliteText(`£${run}`)).toBe(`${run} pounds`);
    expect(fliteText(`${run}, then 5 ¥`)).toBe(`${run}, then 5 yen`);
    expect(fliteText(`${'1.'.repeat(4000)}€`)).toBe(`${'1.'.repeat(4000)} `);
  });
});
