import { createRequire } from 'node:module';
import type * as ZxcvbnCore from '@zxcvbn-ts/core';
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';
import { invalidField } from '../domain/errors';

// zxcvbn scores 0 to 4; 0 and 1 mean fewer than a million guesses (the most used passwords,
// keyboard walks, repeats and near copies of them).
const MIN_SCORE = 2;

// Built on first use (a cache), the library with it: the dictionaries take a moment to load and
// several megabytes resident, and most starts never need them before someone signs up.
let estimator: ZxcvbnCore.ZxcvbnFactory | undefined;
const require = createRequire(import.meta.url);

function loadEstimator(): ZxcvbnCore.ZxcvbnFactory {
  const core = require('@zxcvbn-ts/core') as typeof ZxcvbnCore;
  const common = require('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon;
  return new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });
}

/**
 * Refuses a password that is blank or easy to guess with a 4000 naming `field` and saying why.
 * `related` are words an attacker would try first for this account (its e-mail address).
 */
export function assertStrongPassword(field: string, password: string, related: string[]): void {
  if (password.trim() === '') throw invalidField(field, 'fieldErrors.onlySpaces');
  estimator ??= loadEstimator();
  const { score } = estimator.check(password, related);
  if (score < MIN_SCORE) throw invalidField(field, 'fieldErrors.guessable');
}
