import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { refused } from '../domain/errors';

/**
 * How many "Download my data" zips one person may have built in a day: each is the whole
 * account read and written again and a mail to its owner, and a server builds one at a time
 * for everyone.
 */
export const DATA_EXPORTS_PER_DAY = 5;

/**
 * One limiter per sensitive call: in this process's memory, or in Redis when several servers
 * must share the counts (see {@link createRateLimits}).
 */
export interface RateLimits {
  /** Login attempts of one address on one account. */
  login: RateLimiterAbstract;
  /**
   * Failed logins on one account from any address it has not signed in from: slow guessing
   * spread over many IPs.
   */
  loginFailsByAccount: RateLimiterAbstract;
  /**
   * Failed logins on one account from one address it signed in from before (see
   * `loginPlaces`): the account's lock does not keep its owner out there, this bounds guessing.
   */
  loginFailsByAccountAtPlace: RateLimiterAbstract;
  /** The addresses each account signed in from (with its password) in the last 21 days. */
  loginPlaces: RateLimiterAbstract;
  /** Failed logins from one address on any account: one IP trying many accounts. */
  loginFailsByIp: RateLimiterAbstract;
  /** Registrations from one address. */
  register: RateLimiterAbstract;
  /** Registrations of one e-mail address from any address: each mails its owner. */
  registerByEmail: RateLimiterAbstract;
  verifyStatus: RateLimiterAbstract;
  changePassword: RateLimiterAbstract;
  /** Nickname changes by one account: each one is shown in every listing of its mates. */
  changeNickname: RateLimiterAbstract;
  /** Reset links asked for from one address: each may send a mail. */
  forgotPasswordByIp: RateLimiterAbstract;
  /** Reset links asked for one e-mail address, from anywhere: each mails its owner. */
  forgotPasswordByEmail: RateLimiterAbstract;
  /** New passwords set with a reset token, from one address (tokens are not guessable). */
  resetPassword: RateLimiterAbstract;
  /** Inspiration and character drafts, per user: each runs the model. */
  generation: RateLimiterAbstract;
  /** Card imports, per user: each may store a portrait and a mate. */
  importCard: RateLimiterAbstract;
  /** Card previews, per user: each reads a card and decodes its picture. */
  previewCard: RateLimiterAbstract;
  /** Copies of a mate, per user: each stores a mate and a copy of its portrait. */
  duplicateMate: RateLimiterAbstract;
  /** Branches of chats made, per user: each copies a chat (its pictures' files too). */
  branch: RateLimiterAbstract;
  /** "Download my data" zips built, per user (see {@link DATA_EXPORTS_PER_DAY}). */
  dataExport: RateLimiterAbstract;
  /** Portrait changes, per user: an upload is decoded, cropped and encoded. */
  setPortrait: RateLimiterAbstract;
  /** New mates from the studio's form (`saveMate` without `mateId`), per user. */
  createMate: RateLimiterAbstract;
  /** Reports on mates from one address, signed in or not. */
  feedbackByIp: RateLimiterAbstract;
  /** Reports on mates from one signed-in user, from any address. */
  feedbackByUser: RateLimiterAbstract;
  /** Pictures asked for, per user: each holds an engine (and costs coins). */
  createImage: RateLimiterAbstract;
  /** Voice calls started, per user: each holds a socket, and its replies the engines. */
  callStart: RateLimiterAbstract;
  /** Recordings turned into text, per user: each holds the speech-to-text engine. */
  transcribe: RateLimiterAbstract;
  /**
   * Recordings turned into text, per user and day: free to the user, paid by the operator to a
   * hosted engine by the minute of audio.
   */
  transcribeDaily: RateLimiterAbstract;
  /** Voice samples (`/voice/textToAudio` with `text`), per user: free, each runs the engine. */
  voiceSample: RateLimiterAbstract;
  /**
   * New voice samples made, per user and day: each is free and kept as a file, so a script
   * would get free speech of any text and fill the disk.
   */
  voiceSampleDaily: RateLimiterAbstract;
  /**
   * Voice clips and samples that failed or are being made, per user: each failure held the engine and gave its coins
   * back, so a script repeating one that fails (or editing a message to renew it) costs
   * nothing. Each try is counted as it starts and given back when it succeeds or fails by no
   * fault of the person ({@link startTry}).
   */
  voiceFailures: RateLimiterAbstract;
}

/**
 * How long an address an account signed in from stays one it is not locked out of. Under 24.8
 * days: the memory store expires keys with a timer, and a longer one fires at once.
 */
const LOGIN_PLACE_DAYS = 21;

/** Where the counts of {@link createRateLimits} are kept when servers share them. */
export interface SharedStore {
  client: Redis;
  /** Put before every key (`REDIS_PREFIX`). */
  prefix: string;
}

/**
 * The limits: generous for people, tight for scripts. `scale` multiplies every allowance.
 * With `shared`, the counts live in Redis (rate-limiter-flexible's Redis store), so a limit
 * holds across every server; while Redis does not answer, each server counts in its own memory
 * (the store's insurance limiter) rather than refusing everyone or letting everyone through.
 */
export function createRateLimits(scale = 1, shared?: SharedStore): RateLimits {
  const limiter = (keyPrefix: string, points: number, duration: number) => {
    const options = { keyPrefix, points: points * scale, duration };
    if (!shared) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      keyPrefix: `${shared.prefix}limit:${keyPrefix}`,
      storeClient: shared.client,
      // Not connected: straight to the insurance, not a wait for a reconnection.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  };
  return {
    login: limiter('login', 10, 60),
    // A person mistyping stays far below these; they also hold back the owner while an
    // attack runs, the price of not letting a botnet guess at leisure.
    loginFailsByAccount: limiter('login-fails-account', 30, 60 * 60),
    // Whoever guesses at an account can lock it; not where its owner signed in before.
    loginFailsByAccountAtPlace: limiter('login-fails-place', 30, 60 * 60),
    // Not a limit: a remembered key for 21 days, kept where the limits are (memory or Redis).
    loginPlaces: limiter('login-place', 1, LOGIN_PLACE_DAYS * 24 * 60 * 60),
    loginFailsByIp: limiter('login-fails-ip', 100, 60 * 60),
    register: limiter('register', 10, 60 * 60),
    // Each registration mails the address and replaces its pending link: a few an hour keep
    // a botnet from flooding an inbox, or from replacing the link its owner is about to open.
    registerByEmail: limiter('register-email', 5, 60 * 60),
    // Polling every 2 s is 30 calls a minute; leave room for two open tabs.
    verifyStatus: limiter('verify', 90, 60),
    changePassword: limiter('password', 5, 15 * 60),
    // A person settles on a name in a few tries; each change makes every server list again.
    changeNickname: limiter('nickname', 10, 60 * 60),
    // A person tries a few other ways a story could go; a script would copy chats without end.
    branch: limiter('branch', 60, 60 * 60),
    // A person downloads their data now and then; a script would mail them and hold the line.
    dataExport: limiter('data-export', DATA_EXPORTS_PER_DAY, 24 * 60 * 60),
    forgotPasswordByIp: limiter('forgot-ip', 10, 60 * 60),
    forgotPasswordByEmail: limiter('forgot-email', 3, 60 * 60),
    resetPassword: limiter('reset', 10, 15 * 60),
    // A person asks for ideas a few times a minute; a script asking faster only burns the model.
    generation: limiter('generate', 20, 60),
    // The studio: a person imports, copies or starts a handful of mates in a sitting and tries
    // a few portraits each; these stop a script from filling the disk or keeping sharp busy.
    importCard: limiter('import-card', 30, 60 * 60),
    previewCard: limiter('preview-card', 60, 60 * 60),
    duplicateMate: limiter('duplicate-mate', 30, 60 * 60),
    setPortrait: limiter('set-portrait', 60, 60 * 60),
    createMate: limiter('create-mate', 30, 60 * 60),
    // Reports go to people: an address may share a school or office, a user needs only a few.
    feedbackByIp: limiter('feedback-ip', 30, 60 * 60),
    feedbackByUser: limiter('feedback-user', 10, 60 * 60),
    // A person asks for a picture or two a minute; a script would only queue up the engine.
    createImage: limiter('create-image', 10, 60),
    // A person speaks a message every few seconds at most; a script would only hold the engine.
    // A person calls a few times an hour, and again at once when a call drops.
    callStart: limiter('call-start', 30, 60 * 60),
    transcribe: limiter('transcribe', 20, 60),
    // Some hundreds of spoken messages a day is a lot of chatting; a script would run up a bill.
    transcribeDaily: limiter('transcribe-day', 300, 24 * 60 * 60),
    // Previewing voices in the mate editor: a few a minute; the same sample twice is kept.
    voiceSample: limiter('voice-sample', 20, 60),
    // A creator previews a few voices on a few mates; a sample already made costs nothing here.
    voiceSampleDaily: limiter('voice-sample-day', 60, 24 * 60 * 60),
    // A person whose clip fails tries again a few times; a script cannot keep an engine busy free.
    voiceFailures: limiter('voice-failures', 10, 60 * 60),
  };
}

/** Spends one point for `key`; when none is left, a 5007 saying when to try again. */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    throw tooManyAttempts(error.msBeforeNext);
  }
}

/**
 * Refuses (5007, saying when to try again) once `limiter` counted all its points for `key`,
 * spending none: a check before work that {@link startTry} will count.
 */
export async function refuseWhenSpent(limiter: RateLimiterAbstract, key: string): Promise<void> {
  const spent = await limiter.get(key);
  if (spent && spent.consumedPoints >= limiter.points) throw tooManyAttempts(spent.msBeforeNext);
}

/**
 * Counts a try that may fail against `key` before it starts (5007, saying when to try again,
 * when `limiter` has no point left), so that tries sent at once are counted as they arrive, not
 * after they failed: at most the limit of them run. The answer gives the point back, for the
 * caller to call once the try succeeded or failed through no fault of the person.
 */
export async function startTry(
  limiter: RateLimiterAbstract,
  key: string,
): Promise<() => Promise<void>> {
  await consume(limiter, key);
  return async () => {
    await limiter.reward(key);
  };
}

/** Whether the account of `email` signed in from `ip` in the last 21 days. */
async function isLoginPlace(limits: RateLimits, ip: string, email: string): Promise<boolean> {
  try {
    return (await limits.loginPlaces.get(`${email}|${ip}`)) !== null;
  } catch {
    // The store does not answer: an address like any other.
    return false;
  }
}

/**
 * Counts a login against its account and its address as failed before its password is
 * checked, so that guesses sent all at once are counted as they arrive, not after their slow
 * checks; refuses it when either failed too often. From an address the account signed in from
 * before, the account's failures there count instead of all of them, so that someone guessing
 * from elsewhere does not lock its owner out. The answer gives the attempt back and remembers
 * the address, for the caller to call once the password proves right.
 */
export async function startLoginAttempt(
  limits: RateLimits,
  ip: string,
  email: string,
): Promise<() => Promise<void>> {
  const counts = [
    (await isLoginPlace(limits, ip, email))
      ? ([limits.loginFailsByAccountAtPlace, `${email}|${ip}`] as const)
      : ([limits.loginFailsByAccount, email] as const),
    [limits.loginFailsByIp, ip] as const,
  ];
  const giveBack = async (upTo: number) => {
    for (const [limiter, key] of counts.slice(0, upTo)) await limiter.reward(key);
  };
  const succeeded = async () => {
    await giveBack(counts.length);
    await limits.loginPlaces
      .set(`${email}|${ip}`, 1, LOGIN_PLACE_DAYS * 24 * 60 * 60)
      .catch(() => {});
  };
  for (const [index, [limiter, key]] of counts.entries()) {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      // A refused attempt checks no password: it costs the other count nothing.
      await giveBack(index);
      throw tooManyAttempts(error.msBeforeNext);
    }
  }
  return succeeded;
}

/**
 * The refusal once a limit is spent (5007): when to try again, in whole seconds up to 90 and
 * in minutes beyond. Said in the sentence only, not as `Retry-After`: a client leaves a refusal
 * with `Retry-After` to its caller (no notification; the chat asks again by itself), and a
 * person who hit a limit is to be told.
 */
function tooManyAttempts(msBeforeNext: number) {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  if (seconds <= 90)
    return seconds === 1
      ? refused('notices.limits.second', { count: seconds })
      : refused('notices.limits.seconds', { count: seconds });
  return refused('notices.limits.minutes', { count: Math.ceil(seconds / 60) });
}
