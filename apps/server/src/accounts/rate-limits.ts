import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { notice } from '../http/envelope';

/** One limiter per sensitive call (in memory; Redis or PostgreSQL stores at scale). */
export interface RateLimits {
  login: RateLimiterMemory;
  register: RateLimiterMemory;
  verifyStatus: RateLimiterMemory;
  changePassword: RateLimiterMemory;
  /** Inspiration and character drafts, per user: each runs the model. */
  generation: RateLimiterMemory;
}

/** The limits: generous for people, tight for scripts. `scale` multiplies every allowance. */
export function createRateLimits(scale = 1): RateLimits {
  const limiter = (keyPrefix: string, points: number, duration: number) =>
    new RateLimiterMemory({ keyPrefix, points: points * scale, duration });
  return {
    login: limiter('login', 10, 60),
    register: limiter('register', 10, 60 * 60),
    // Polling every 2 s is 30 calls a minute; leave room for two open tabs.
    verifyStatus: limiter('verify', 90, 60),
    changePassword: limiter('password', 5, 15 * 60),
    // A person asks for ideas a few times a minute; a script asking faster only burns the model.
    generation: limiter('generate', 20, 60),
  };
}

/** Spends one point for `key`; when none is left, a 5007 saying when to try again. */
export async function consume(limiter: RateLimiterMemory, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw notice(
      `Too many attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    );
  }
}
