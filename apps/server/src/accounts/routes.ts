import { Hono } from 'hono';
import { z } from 'zod';
import { GENDERS } from '@mates/api-client';
import { CODE, EnvelopeError, notice } from '../http/envelope';
import { contract } from '../http/contract';
import { clientIp, requireUser, type ApiEnv, type Deps } from '../http/context';
import { now, toJson } from '../db/dialect';
import { consume, startLoginAttempt } from './rate-limits';
import { hashPassword, verifyPassword } from './secrets';
import { createSession, endOtherSessions, endSession } from './sessions';
import { toUserInfo } from './user-info';
import { getBenefits } from './benefits';
import { confirmVerification, redeemTicket } from './verification';
import { register } from './registration';
import { chosenNickname, isOldDefault } from './nicknames';
import { assertStrongPassword } from './password-policy';
import { confirmPage, THEME_SCRIPT, verifiedPage } from './verified-page';
import { oauthRoutes } from './oauth-routes';
import { personaRoutes } from './persona-routes';
import { en } from '../i18n/en';
import { forgetUserSessions } from './session-cache';

export const email = z
  .email('must be an e-mail address')
  .max(254)
  .transform((value) => value.trim().toLowerCase());
export const password = z.string().min(8, 'must be at least 8 characters').max(200);
const credentials = z.object({ email, password: z.string().min(1, 'is required').max(200) });
/** The shape of a language tag such as `en` or `pt-BR`. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** A language tag such as `en` or `pt-BR`, as every call that takes one checks it. */
export const languageTag = z
  .string()
  .regex(LANGUAGE_TAG, 'must be a language tag such as "en" or "pt-BR"');

/**
 * The caller's language from the `language` header: the tag as given, or `en` when there is
 * none or it is not one (it is kept on a new account and read into prompts).
 */
export const headerLanguage = (header: string | undefined): string =>
  header && header.length <= 35 && LANGUAGE_TAG.test(header) ? header : 'en';

/** The words of an address a guesser tries first: the whole address and its local part. */
export const addressWords = (address: string) => [address, address.split('@')[0]!];

/**
 * register, verify status and its link, login, logout, password, language, tags, nickname,
 * benefits.
 */
export function accountRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, limits } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.post('/user/register', z.object({ email, password }), async (c, read) => {
    await consume(limits.register, clientIp(c));
    const input = await read();
    assertStrongPassword('password', input.password, addressWords(input.email));
    await consume(limits.registerByEmail, input.email);
    const registration = { ...input, language: c.get('language') };
    const verifyTicket = await register(db, deps.mailer, registration, deps.config.publicUrl);
    return { verifyTicket };
  });

  // The mailed link opens a page whose button confirms (see confirmPage): GET changes nothing.
  routes.get('/verify/confirm', (c) => {
    const token = c.req.query('token') ?? '';
    return c.html(confirmPage(`/api/user/verify/confirm?token=${encodeURIComponent(token)}`));
  });
  // Those pages take the person's colour theme from a script of this site (no inline script).
  routes.get('/verify/theme.js', (c) =>
    c.body(THEME_SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    }),
  );
  routes.post('/verify/confirm', async (c) => {
    const token = c.req.query('token') ?? '';
    const result = await confirmVerification(db, token, deps.config.welcome);
    return c.html(verifiedPage(result, deps.config.publicUrl), result === 'unknown' ? 404 : 200);
  });

  const verifyPayload = z.object({ email, verifyTicket: z.string().max(200).optional() });
  api.post('/user/verify/status', verifyPayload, async (c, read) => {
    await consume(limits.verifyStatus, clientIp(c));
    const input = await read();
    // Only the browser holding the ticket of the opened link learns anything about the address.
    const user = input.verifyTicket
      ? await redeemTicket(db, input.email, input.verifyTicket)
      : null;
    const userInfo = user
      ? toUserInfo(user, await createSession(db, user.id), deps.config.adminEmails)
      : null;
    return { verified: userInfo !== null, userInfo };
  });

  api.post('/user/login', credentials, async (c, read) => {
    const input = await read();
    const ip = clientIp(c);
    await consume(limits.login, `${ip}:${input.email}`);
    const succeeded = await startLoginAttempt(limits, ip, input.email);
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', input.email)
      .executeTakeFirst();
    if (!(await verifyPassword(user?.password_hash, input.password)) || !user) {
      throw notice(en.notices.account.wrongPassword);
    }
    await succeeded();
    if (!user.email_verified_at) {
      throw notice(en.notices.account.confirmEmail);
    }
    return toUserInfo(user, await createSession(db, user.id), deps.config.adminEmails);
  });

  api.post('/user/logout', async (c) => {
    await endSession(db, c.get('token'));
    return null;
  });

  const passwordPayload = z.object({ oldPassword: z.string().max(200), newPassword: password });
  api.post('/user/changePassword', passwordPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(limits.changePassword, user.id);
    const input = await read();
    assertStrongPassword('newPassword', input.newPassword, addressWords(user.email));
    if (!user.password_hash || !(await verifyPassword(user.password_hash, input.oldPassword))) {
      throw notice(en.notices.account.currentPassword);
    }
    await db
      .updateTable('users')
      .set({ password_hash: await hashPassword(input.newPassword), updated_at: now() })
      .where('id', '=', user.id)
      .execute();
    await endOtherSessions(db, user.id, c.get('token'));
    return null;
  });

  api.get('/user/updateLange', z.object({ language: languageTag }), async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    await db
      .updateTable('users')
      .set({ language: input.language, updated_at: now() })
      .where('id', '=', user.id)
      .execute();
    await forgetUserSessions(db, user.id);
    return null;
  });

  const tagsPayload = z.object({
    tags: z.array(z.string().min(1).max(40)).max(30),
    gender: z.enum(GENDERS).nullable().optional(),
    nfsw: z.boolean().optional(),
  });
  api.post('/user/updateTags', tagsPayload, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const known = await db
      .selectFrom('tags')
      .select('key')
      .where('key', 'in', input.tags.length ? input.tags : [''])
      .execute();
    const unknown = input.tags.filter((tag) => !known.some((row) => row.key === tag));
    if (unknown.length > 0)
      throw new EnvelopeError(CODE.badInput, `tags: unknown tag "${unknown[0]}"`);
    const changes = {
      tags: toJson([...new Set(input.tags)]),
      ...(input.gender !== undefined ? { gender: input.gender } : {}),
      ...(input.nfsw !== undefined ? { nfsw: input.nfsw } : {}),
      updated_at: now(),
    };
    await db.updateTable('users').set(changes).where('id', '=', user.id).execute();
    await forgetUserSessions(db, user.id);
    const updated = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return toUserInfo(updated, c.get('token'), deps.config.adminEmails);
  });

  // The name shown on the person's mates, reviews and reports, and the one mates call them.
  api.post('/user/updateNickname', z.object({ nickname: chosenNickname }), async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    if (isOldDefault(input.nickname, user.email))
      throw new EnvelopeError(
        CODE.badInput,
        'nickname: must not be the start of your e-mail address',
      );
    const info = toUserInfo(
      { ...user, nickname: input.nickname },
      c.get('token'),
      deps.config.adminEmails,
    );
    // The same name again changes nothing, and makes no server list its mates again.
    if (input.nickname === user.nickname) return info;
    await consume(limits.changeNickname, user.id);
    await db
      .updateTable('users')
      .set({ nickname: input.nickname, updated_at: now() })
      .where('id', '=', user.id)
      .execute();
    await forgetUserSessions(db, user.id);
    return info;
  });

  api.get('/user/benefits', (c) => getBenefits(db, requireUser(c).id));

  routes.route('/', oauthRoutes(deps));
  routes.route('/', personaRoutes(deps));
  return routes;
}
