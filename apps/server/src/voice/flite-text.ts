/** Letters NFKD does not take apart, written as Flite can read them. */
const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  ð: 'd',
  ı: 'i',
};

/** Currency signs Flite does not know, read after their amount (`€12` is "12 euros"). */
const CURRENCIES: Record<string, string> = {
  '€': 'euros',
  '£': 'pounds',
  '¥': 'yen',
  '₹': 'rupees',
};

/** Whether a text has one of the {@link CURRENCIES}' signs. */
const CURRENCY_SIGN = /[€£¥₹]/;

/**
 * An amount with its currency sign before or after it. A sign after is looked for only from the
 * first digit of a number (not right after a digit, or a digit and its separator): tried from
 * every digit, a long run like `1,1,1,…` with no sign after it was read again from each of its
 * digits, quadratic in its length (8,000 characters held the event loop half a second).
 */
const CURRENCY_AMOUNT = /([€£¥₹])\s?(\d+(?:[.,]\d+)*)|(?<!\d[.,]?)(\d+(?:[.,]\d+)*)\s?([€£¥₹])/g;

/** Digits in a row beyond which they are read in groups of three (Flite slows down on long ones). */
const LONGEST_NUMBER = 12;

/**
 * `text` as the embedded engine (Flite, English voices, ASCII only) can read it: Latin letters
 * without their accents (`café`, `señor`, `Straße` as `cafe`, `senor`, `Strasse`), currency
 * signs as words, very long runs of digits in groups, and every other character (emoji, other
 * scripts, symbols) left out. What is left out is skipped, never spelled or fatal.
 */
export function fliteText(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, (char) => (LETTERS[char] ? LETTERS[char] : char));
  // Most replies have no currency sign: their amounts are not looked for at all.
  const priced = CURRENCY_SIGN.test(ascii)
    ? ascii.replace(
        CURRENCY_AMOUNT,
        (_, sign: string, amount: string, before: string, after: string) =>
          sign ? `${amount} ${CURRENCIES[sign]}` : `${before} ${CURRENCIES[after]}`,
      )
    : ascii;
  return (
    priced
      .replace(new RegExp(`\\d{${LONGEST_NUMBER + 1},}`, 'g'), (digits) =>
        digits.replace(/\d{3}(?=\d)/g, '$& '),
      )
      // Typographic quotes and dashes Flite would skip or spell: their ASCII look-alikes.
      .replace(/[‘’‚‛]/g, "'")
      .replace(/[“”„‟«»]/g, '"')
      .replace(/[‐‑‒–—―]/g, ', ')
      .replace(/…/g, '...')
      .replace(/[^\x20-\x7e\n]/g, ' ')
      .replace(/[ \t]+/g, ' ')
  );
}
