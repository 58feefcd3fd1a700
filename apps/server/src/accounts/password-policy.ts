import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { badInput } from '../http/envelope';

// zxcvbn scores 0 to 4; 0 and 1 mean fewer than a million guesses (the most used passwords,
// keyboard walks, repeats and near copies of them).
const MIN_SCORE = 2;

// Built on first use (a cache): the dictionaries take a moment to load and most starts never
// need them before someone signs up.
let estimator: ZxcvbnFactory | undefined;

/**
 * Refuses a password that is blank or easy to guess with a 4000 naming `field` and saying why.
 * `related` are words an attacker would try first for this account (its e-mail address).
 */
export function assertStrongPassword(field: string, password: string, related: string[]): void {
  if (password.trim() === '') throw badInput(`${field}: must not be only spaces`);
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  const { score } = estimator.check(password, related);
  if (score < MIN_SCORE) {
    throw badInput(
      `${field}: is too easy to guess (a common password, a pattern or your address); a few uncommon words make a strong one`,
    );
  }
}
