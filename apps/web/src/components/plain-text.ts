import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';

/**
 * A message as one line of plain text, for previews (a chat list's last message): the
 * Markdown a chat bubble renders (`*waves*`, `**bold**`, links) without its marks, line
 * breaks as spaces, at most `max` characters.
 */
export function plainPreview(markdown: string, max = 140): string {
  const text = toString(fromMarkdown(markdown), { includeImageAlt: true })
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
