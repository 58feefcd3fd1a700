import { textsFor } from '../i18n/texts';
import type { Mail } from '../mail/mailer';
import { escapeHtml, linkHtml, paragraphsHtml } from '../mail/compose';
import type { ExternalProvider } from './user-repository';

// Each mail is written in `language`, the one its reader most likely reads (English for a
// language the server has no sentences in); the callers say whose language that is.

/** The mail whose link verifies `email` (its link works for 24 hours). */
export function verificationMail(
  email: string,
  linkToken: string,
  publicUrl: string,
  language: string,
): Mail {
  const t = textsFor(language);
  const link = `${publicUrl}/api/user/verify/confirm?token=${encodeURIComponent(linkToken)}`;
  const [welcome, works] = [t('mails.verification.welcome'), t('mails.verification.works')];
  return {
    to: email,
    subject: t('mails.verification.subject'),
    text: `${welcome}\n\n${t('mails.verification.open')}\n${link}\n\n${works}\n`,
    html: `<p>${escapeHtml(welcome)}</p><p>${linkHtml(link, t('mails.verification.button'))}</p><p>${escapeHtml(works)}</p>`,
  };
}

/** Tells the owner of a verified address that someone tried to register it, and nothing more. */
export function alreadyRegisteredMail(email: string, publicUrl: string, language: string): Mail {
  const t = textsFor(language);
  const paragraphs = [
    t('mails.alreadyRegistered.tried'),
    `${t('mails.alreadyRegistered.ifYou', { url: publicUrl })}\n${t('mails.alreadyRegistered.ifNot')}`,
  ];
  return {
    to: email,
    subject: t('mails.alreadyRegistered.subject'),
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphsHtml(paragraphs),
  };
}

/** The mail with a link that sets a new password (it works once, for one hour). */
export function resetLinkMail(
  email: string,
  token: string,
  publicUrl: string,
  language: string,
): Mail {
  const t = textsFor(language);
  const link = `${publicUrl}/#/reset-password?token=${encodeURIComponent(token)}`;
  const [asked, works] = [t('mails.resetLink.asked'), t('mails.resetLink.works')];
  return {
    to: email,
    subject: t('mails.resetLink.subject'),
    text: `${asked}\n\n${t('mails.resetLink.open')}\n${link}\n\n${works}\n`,
    html: `<p>${escapeHtml(asked)}</p><p>${linkHtml(link, t('mails.resetLink.button'))}</p><p>${escapeHtml(works)}</p>`,
  };
}

/**
 * Tells the owner of an account that signing in with a provider took its password away and
 * signed every other device out (see `linkOrCreateUser`).
 */
export function passwordRemovedMail(
  email: string,
  provider: ExternalProvider,
  language: string,
): Mail {
  const t = textsFor(language);
  const name = provider === 'google' ? 'Google' : 'Discord';
  const paragraphs = [
    t('mails.passwordRemoved.signedIn', { provider: name }),
    t('mails.passwordRemoved.removed'),
    t('mails.passwordRemoved.again'),
  ];
  return {
    to: email,
    subject: t('mails.passwordRemoved.subject', { provider: name }),
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphsHtml(paragraphs),
  };
}
