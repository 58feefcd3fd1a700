import { textsFor } from '../i18n/texts';
import type { Mail } from '../mail/mailer';
import { escapeHtml, mailDate, paragraphsHtml, sentenceWithLinkHtml } from '../mail/compose';

// Each mail is written in its owner's language, the account's (English for a language the
// server has no sentences in).

/** Tells the owner that their data is ready, with a link to the profile that downloads it. */
export function dataReadyMail(
  email: string,
  publicUrl: string,
  expiresAt: string,
  language: string,
): Mail {
  const t = textsFor(language);
  const link = `${publicUrl}/#/profile`;
  const [ready, until] = [
    t('mails.dataReady.ready'),
    t('mails.dataReady.until', { date: mailDate(language, expiresAt) }),
  ];
  return {
    to: email,
    subject: t('mails.dataReady.subject'),
    text: `${[ready, `${t('mails.dataReady.download')}\n${link}`, until].join('\n\n')}\n`,
    html: [
      `<p>${escapeHtml(ready)}</p>`,
      `<p>${sentenceWithLinkHtml((placeholder) => t('mails.dataReady.downloadHtml', { link: placeholder }), link, t('mails.dataReady.downloadLink'))}</p>`,
      `<p>${escapeHtml(until)}</p>`,
    ].join(''),
  };
}

/** Tells the owner that their account and everything in it were deleted. */
export function accountDeletedMail(email: string, language: string): Mail {
  const t = textsFor(language);
  const paragraphs = [t('mails.accountDeleted.deleted'), t('mails.accountDeleted.again')];
  return {
    to: email,
    subject: t('mails.accountDeleted.subject'),
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphsHtml(paragraphs),
  };
}
