import type { Nodes, Root } from 'mdast';

/** Blocks whose text is read as a sentence of its own. */
const BLOCKS = new Set(['paragraph', 'heading', 'listItem', 'blockquote', 'code', 'tableRow']);

/**
 * Markdown as the chat bubble parses it (mdast, with the tables and `~~struck~~` words of
 * GitHub's Markdown that the bubble reads too), loaded at the first message spoken: a server
 * that speaks none never needs it.
 */
function markdownParser(): Promise<(markdown: string) => Root> {
  return (parser ??= loadParser());
}

let parser: Promise<(markdown: string) => Root> | undefined;

async function loadParser(): Promise<(markdown: string) => Root> {
  const [{ fromMarkdown }, table, tableTree, strike, strikeTree] = await Promise.all([
    import('mdast-util-from-markdown'),
    import('micromark-extension-gfm-table'),
    import('mdast-util-gfm-table'),
    import('micromark-extension-gfm-strikethrough'),
    import('mdast-util-gfm-strikethrough'),
  ]);
  const options = {
    extensions: [table.gfmTable(), strike.gfmStrikethrough({ singleTilde: false })],
    mdastExtensions: [tableTree.gfmTableFromMarkdown(), strikeTree.gfmStrikethroughFromMarkdown()],
  };
  return (markdown) => fromMarkdown(markdown, options);
}

/**
 * What a message says aloud: the text a person reads in the chat bubble, without markdown's
 * symbols. Parsed as the bubble parses it (mdast, as react-markdown does): emphasis, strong,
 * headings, lists and quotes give their words (a numbered list its numbers too); a table its
 * rows, cell after cell; a link its text; code its content without the fences; pictures and raw
 * HTML nothing. Emphasis written with single asterisks (`*smiles*`)
 * is a stage direction the chat shows muted, and is not read; `_word_` emphasis is.
 */
export async function spokenText(markdown: string): Promise<string> {
  const tree = (await markdownParser())(markdown);
  const parts: string[] = [];
  const walk = (node: Nodes): void => {
    switch (node.type) {
      case 'text':
      case 'inlineCode':
        parts.push(node.value);
        return;
      case 'code':
        parts.push(node.value, '\n');
        return;
      case 'break':
      case 'thematicBreak':
        parts.push('\n');
        return;
      case 'image':
      case 'imageReference':
      case 'html':
      case 'definition':
        return;
      case 'tableRow':
        // A row is a sentence of its cells, one after another ("Monday, Library, 4").
        for (const [index, cell] of node.children.entries()) {
          if (index > 0) parts.push(', ');
          walk(cell);
        }
        parts.push('\n');
        return;
      case 'list':
        // A numbered list's numbers are said, as the bubble shows them ("1. stay").
        if (node.ordered)
          for (const [index, item] of node.children.entries()) {
            parts.push(`${(node.start ?? 1) + index}. `);
            walk(item);
          }
        else break;
        return;
      case 'emphasis': {
        const start = node.position?.start.offset;
        if (start !== undefined && markdown[start] === '*') return;
        break;
      }
    }
    if ('children' in node) for (const child of node.children) walk(child as Nodes);
    if (BLOCKS.has(node.type)) parts.push('\n');
  };
  walk(tree);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * Whether `markdown` ends inside a stage direction (`*` … `*`, single asterisks) or a link (`[`
 * … `](` … `)`) it began: its words are known only once a later sentence closes it. An asterisk
 * opens before a word (`*smiles`), closes after one (`softly.*`); `5 * 3` does neither.
 */
export function openInline(markdown: string): boolean {
  let stage = false;
  for (const match of markdown.matchAll(/(?<!\*)\*(?!\*)/g)) {
    const before = markdown[match.index - 1] ?? ' ';
    const after = markdown[match.index + 1] ?? ' ';
    if (stage && /\S/.test(before)) stage = false;
    else if (!stage && /\S/.test(after)) stage = true;
  }
  if (stage) return true;
  const label = markdown.lastIndexOf('[');
  if (label !== -1 && !markdown.includes(']', label)) return true;
  const target = markdown.lastIndexOf('](');
  return target !== -1 && !markdown.includes(')', target);
}
