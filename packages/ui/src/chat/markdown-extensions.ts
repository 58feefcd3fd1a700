import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';

/** Where a unified processor keeps the extensions its Markdown parser takes. */
interface ParserData {
  micromarkExtensions?: unknown[];
  fromMarkdownExtensions?: unknown[];
}

/**
 * The parts of GitHub's Markdown a chat reads, wired as remark-gfm wires all of them: tables,
 * `~~struck~~` words and addresses written out (`https://…`, `www.…`) as links. Not a single
 * tilde, which roleplay writes after words ("hi~"), nor footnotes (their ids would repeat from
 * one message to the next, and their heading is English) or task lists (a checkbox with no
 * name, that cannot be ticked).
 */
export function remarkChatMarkdown(this: { data: () => object }): void {
  const data = this.data() as ParserData;
  (data.micromarkExtensions ??= []).push(
    gfmTable(),
    gfmStrikethrough({ singleTilde: false }),
    gfmAutolinkLiteral(),
  );
  (data.fromMarkdownExtensions ??= []).push(
    gfmTableFromMarkdown(),
    gfmStrikethroughFromMarkdown(),
    gfmAutolinkLiteralFromMarkdown(),
  );
}
