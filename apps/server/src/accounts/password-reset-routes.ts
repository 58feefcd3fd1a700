import { Hono } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { clientIp, type ApiEnv, type Deps } from '../http/context';
import { consume } from './rate-limits';
import { forgotPassword, resetPassword } from './password-reset-service';
import { email, password } from './account-routes';

const resetPayload = z.object({ token: z.string().min(1).max(200), password });

/**
 * A forgotten password: `/user/forgotPassword` mails a link that works once, for an hour;
 * `/user/resetPassword` sets the new password with it and ends every session of the account.
 * The first answers alike whether or not an account uses the address, and just as fast (the
 * account is looked up, and its link made and mailed, after the answer: see
 * `password-reset-service.ts`), so it tells no one who has an account.
 */
export function passwordResetRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.post('/user/forgotPassword', z.object({ email }), async (c, read) => {
    await consume(deps.limits.forgotPasswordByIp, clientIp(c));
    await forgotPassword(deps, (await read()).email, c.get('log'));
    return null;
  });

  api.post('/user/resetPassword', resetPayload, async (c, read) => {
    await consume(deps.limits.resetPassword, clientIp(c));
    await resetPassword(deps, await read());
    return null;
  });
  return routes;
}
