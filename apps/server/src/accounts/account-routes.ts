import { Hono } from 'hono';
import { z } from 'zod';
import { GENDERS } from '@mates/api-client';
import { contract } from '../http/contract';
import { clientIp, requireUser, type ApiEnv, type Deps } from '../http/context';
import { consume } from './rate-limits';
import { getBenefits } from './benefits';
import { chosenNickname } from './nicknames';
import { confirmPage, THEME_SCRIPT, verifiedPage } from './verified-page';
import { confirmVerification, register, verificationStatus } from './registration-service';
import { changePassword, login, logout } from './login-service';
import { setLanguage, setNickname, setTags } from './account-settings-service';
import { oauthRoutes } from './oauth-routes';
import { personaRoutes } from './persona-routes';
import type { GreetingsOf } from './persona-service';

export const email = z
  .email('must be an e-mail address')
  .max(254)
  .transform((value) => value.trim().toLowerCase());
export const password = z.string().min(8, 'must be at least 8 characters').max(200);
const credentials = z.object({ email, password: z.string().min(1, 'is required').max(200) });
/** The shape of a language tag such as `en` or `pt-BR`. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * Whether `tag` is a language tag: shaped like one, and one by BCP 47 as ICU reads it (the
 * prompts' language names and the sentence rules of `Intl` throw on `en-US-US` or `zh-yue`).
 */
function isLanguageTag(tag: string): boolean {
  if (tag.length > 35 || !LANGUAGE_TAG.test(tag)) return false;
  try {
    Intl.getCanonicalLocales(tag);
    return true;
  } catch {
    return false;
  }
}

const TAG_HINT = 'must be a language tag such as "en" or "pt-BR"';

/** A language tag such as `en` or `pt-BR`, as every call that takes one checks it. */
export const languageTag = z.string().regex(LANGUAGE_TAG, TAG_HINT).refine(isLanguageTag, TAG_HINT);

/**
 * The caller's language from the `language` header: the tag as given; its first subtag when the
 * rest is no tag ICU knows (`zh-yue` is read as `zh`); or `en` when there is none or it is not
 * one (it is kept on a new account and read into prompts).
 */
export const headerLanguage = (header: string | undefined): string => {
  if (!header) return 'en';
  if (isLanguageTag(header)) return header;
  const first = header.split('-')[0]!;
  return first !== header && isLanguageTag(first) ? first : 'en';
};

const verifyPayload = z.object({ email, verifyTicket: z.string().max(200).optional() });
const passwordPayload = z.object({ oldPassword: z.string().max(200), newPassword: password });
const tagsPayload = z.object({
  tags: z.array(z.string().min(1).max(40)).max(30),
  gender: z.enum(GENDERS).nullable().optional(),
  nfsw: z.boolean().optional(),
});

/**
 * register, verify status and its link, login, logout, password, language, tags, nickname,
 * benefits. The rules are in `registration-service.ts`, `login-service.ts` and
 * `account-settings-service.ts`; a rate limit on the caller is spent before their input is read.
 */
export function accountRoutes(deps: Deps & { greetings?: GreetingsOf }): Hono<ApiEnv> {
  const { limits } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.post('/user/register', z.object({ email, password }), async (c, read) => {
    await consume(limits.register, clientIp(c));
    const input = await read();
    return { verifyTicket: await register(deps, { ...input, language: c.get('language') }) };
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
    const result = await confirmVerification(deps, c.req.query('token') ?? '');
    return c.html(verifiedPage(result, deps.config.publicUrl), result === 'unknown' ? 404 : 200);
  });

  api.post('/user/verify/status', verifyPayload, async (c, read) => {
    await consume(limits.verifyStatus, clientIp(c));
    return verificationStatus(deps, await read());
  });

  api.post('/user/login', credentials, async (c, read) =>
    login(deps, { ...(await read()), ip: clientIp(c) }),
  );

  api.post('/user/logout', async (c) => {
    await logout(deps, c.get('token'));
    return null;
  });

  api.post('/user/changePassword', passwordPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(limits.changePassword, user.id);
    await changePassword(deps, user, c.get('token'), await read());
    return null;
  });

  api.get('/user/updateLange', z.object({ language: languageTag }), async (c, read) => {
    const user = requireUser(c);
    await setLanguage(deps, user, (await read()).language);
    return null;
  });

  api.post('/user/updateTags', tagsPayload, async (c, read) => {
    const user = requireUser(c);
    return setTags(deps, user, c.get('token'), await read());
  });

  // The name shown on the person's mates, reviews and reports, and the one mates call them.
  api.post('/user/updateNickname', z.object({ nickname: chosenNickname }), async (c, read) => {
    const user = requireUser(c);
    return setNickname(deps, user, c.get('token'), (await read()).nickname);
  });

  api.get('/user/benefits', (c) => getBenefits(deps.db, requireUser(c).id));

  routes.route('/', oauthRoutes(deps));
  routes.route('/', personaRoutes(deps));
  return routes;
}
