import { StreamParseError } from '../errors/stream-parse-error';

/**
 * What {@link createDataLineParser} calls as the stream is read. `T` is what the caller says
 * each line holds (`unknown` unless named).
 */
export interface DataLineParserCallbacks<T = unknown> {
  /**
   * Called with the parsed JSON of each non-blank `data:` line, in order. The parser checks
   * only that it is JSON: `T` is the caller's word for what the server sends.
   */
  onData: (data: T) => void;
  /** Called once: at a `data: [DONE]` line, or at {@link DataLineParser.end}. */
  onDone?: () => void;
  /** Called for a `data:` line that is not valid JSON; the line is skipped. */
  onError?: (error: StreamParseError) => void;
}

/** An incremental parser of a streamed reply body (docs/product.md, streamed reply). */
export interface DataLineParser {
  /** Feeds the next chunk: text, or bytes of UTF-8 (a character may span chunks). */
  feed: (chunk: string | Uint8Array) => void;
  /** Ends the stream: parses a trailing partial line, then passes done if not yet passed. */
  end: () => void;
  /** Forgets everything, ready for a new stream. */
  reset: () => void;
}

const DATA_PREFIX = 'data:';
const DONE_SENTINEL = '[DONE]';
const BOM = '\uFEFF';

/**
 * Creates a parser for a streamed reply: a body of lines, those starting with `data:`
 * holding JSON. Lines end in LF, CRLF or CR; other lines (`event:`, `id:`, `:` comments)
 * are ignored, blank data lines skipped, and `[DONE]` ends the stream. `T` types what
 * `onData` gets, e.g. `createDataLineParser<ChatStreamEvent>(…)`; without it, `unknown`.
 */
export function createDataLineParser<T = unknown>(
  callbacks: DataLineParserCallbacks<T>,
): DataLineParser {
  const { onData, onDone, onError } = callbacks;
  let decoder: TextDecoder | undefined;
  // Text after the last line end, waiting for the rest of its line.
  let pending = '';
  let atStreamStart = true;
  let done = false;

  function finish(): void {
    if (done) return;
    done = true;
    onDone?.();
  }

  // Works on a range of `source` rather than a sliced line: a reply is mostly tiny events,
  // and each copy per line (line, value, trimmed value) costs more than the parse itself.
  function handleLine(source: string, start: number, end: number): void {
    if (done || end - start < DATA_PREFIX.length || !isDataField(source, start)) return;
    let first = start + DATA_PREFIX.length;
    while (first < end && isBlank(source.charCodeAt(first))) first += 1;
    if (first === end) return;
    if (
      source.charCodeAt(first) === 91 /* [ */ &&
      source.slice(first, end).trimEnd() === DONE_SENTINEL
    ) {
      finish();
      return;
    }
    let data: T;
    try {
      // The parser's promise is JSON; the shape inside is the caller's (see onData).
      data = JSON.parse(source.slice(first, end)) as T;
    } catch (cause) {
      onError?.(new StreamParseError(source.slice(start, end), cause));
      return;
    }
    onData(data);
  }

  function handleText(input: string): void {
    let text = input;
    if (atStreamStart && text !== '') {
      atStreamStart = false;
      // TextDecoder drops a byte-order mark itself; text chunks need it done here.
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    // Any CR or LF ends a line. A CRLF then leaves an empty line between its two halves
    // (even when a chunk splits them), and empty lines mean nothing in this format.
    // Each search runs once per line end it finds, so an LF-only stream never rescans for CR.
    let position = 0;
    let nextLf = text.indexOf('\n');
    let nextCr = text.indexOf('\r');
    while (nextLf !== -1 || nextCr !== -1) {
      const end = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
      if (pending === '') handleLine(text, position, end);
      else {
        const line = pending + text.slice(position, end);
        pending = '';
        handleLine(line, 0, line.length);
      }
      position = end + 1;
      if (end === nextLf) {
        // Writers end each event with an empty line: step over it without a loop turn.
        if (text.charCodeAt(position) === 10) position += 1;
        nextLf = text.indexOf('\n', position);
      } else nextCr = text.indexOf('\r', position);
    }
    if (position < text.length) pending += text.slice(position);
  }

  return {
    feed(chunk) {
      if (typeof chunk === 'string') {
        handleText(chunk);
        return;
      }
      decoder ??= new TextDecoder();
      handleText(decoder.decode(chunk, { stream: true }));
    },
    end() {
      if (decoder) handleText(decoder.decode());
      if (pending !== '') {
        const line = pending;
        pending = '';
        handleLine(line, 0, line.length);
      }
      finish();
    },
    reset() {
      decoder = undefined;
      pending = '';
      atStreamStart = true;
      done = false;
    },
  };
}

// JSON's own whitespace, plus the tab and space that SSE writers put after "data:".
function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

// Char-code comparison: measurably cheaper per line than startsWith() with an offset.
function isDataField(source: string, at: number): boolean {
  return (
    source.charCodeAt(at) === 100 && // d
    source.charCodeAt(at + 1) === 97 && // a
    source.charCodeAt(at + 2) === 116 && // t
    source.charCodeAt(at + 3) === 97 && // a
    source.charCodeAt(at + 4) === 58 // :
  );
}
