import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';

/** The part of a Markdown syntax tree's node that a preview reads. */
interface MarkdownNode {
  type: string;
  value?: string;
  alt?: string | null;
  children?: MarkdownNode[];
}

/** Nodes whose children are blocks or items, each read apart from the next. */
const BLOCKS = new Set(['root', 'blockquote', 'list', 'listItem']);

/**
 * A node's words: blocks, list items and table rows apart (a paragraph does not run into the
 * next), a table read row by row ("Day, Plan; Mon, Rest"), a picture by its description.
 */
function wordsOf(node: MarkdownNode): string {
  if (node.type === 'table')
    return (node.children ?? [])
      .map((row) => (row.children ?? []).map(wordsOf).join(', '))
      .join('; ');
  if (node.type === 'image') return node.alt ?? '';
  if (node.type === 'break') return ' ';
  if (node.children) return node.children.map(wordsOf).join(BLOCKS.has(node.type) ? ' ' : '');
  return node.value ?? '';
}

/**
 * A message as one line of plain text, for previews (a chat list's last message): the
 * Markdown a chat bubble renders (`*waves*`, `**bold**`, links, tables, `~~struck~~` words)
 * without its marks, line breaks as spaces, at most `max` characters.
 */
export function plainPreview(markdown: string, max = 140): string {
  const tree = fromMarkdown(markdown, {
    // As the bubble reads them (see @mates/ui's chat Markdown): two tildes only strike.
    extensions: [gfmTable(), gfmStrikethrough({ singleTilde: false })],
    mdastExtensions: [gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown()],
  });
  const text = wordsOf(tree as MarkdownNode)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
