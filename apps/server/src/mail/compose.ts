import escape from 'escape-html';
import { spokenLanguage } from '../i18n/texts';

/**
 * `text` as HTML shows it: its `&`, `<`, `>` and quotes escaped, safe in an attribute too
 * (escape-html, Express's own).
 */
export function escapeHtml(text: string): string {
  return escape(text);
}

/** Paragraphs of plain text as HTML, each escaped, a line break within one kept as `<br>`. */
export function paragraphsHtml(paragraphs: string[]): string {
  return paragraphs
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** A link to `href` reading `label`, both escaped. */
export function linkHtml(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}

/**
 * A sentence with a link inside, as HTML: `sentence` writes it around the placeholder it is
 * given (a translation's `{{link}}`), where the link to `href` reading `label` goes. The words
 * around the link are escaped as any other.
 */
export function sentenceWithLinkHtml(
  sentence: (link: string) => string,
  href: string,
  label: string,
): string {
  const placeholder = '\u0000';
  const [before = '', after = ''] = sentence(placeholder).split(placeholder);
  return `${escapeHtml(before)}${linkHtml(href, label)}${escapeHtml(after)}`;
}

/**
 * A moment as a mail in `language` writes it: day, month's name, year, hours and minutes, in
 * UTC and saying so ("August 1, 2026 at 6:03 AM UTC", "1 de agosto de 2026 a las 6:03 UTC",
 * "1 août 2026 à 06:03 UTC"). English for a language the mails are not written in. Spaces are
 * plain ones, whichever ICU the server runs with (some put a narrow no-break space before "AM").
 */
export function mailDate(language: string, iso: string): string {
  return new Intl.DateTimeFormat(spokenLanguage(language), {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  })
    .format(new Date(iso))
    .replace(/[\u00a0\u202f]/g, ' ');
}
