import { describe, expect, expectTypeOf, it } from 'vitest';
import fc from 'fast-check';
import { createDataLineParser, type DataLineParserCallbacks } from './data-line-parser';
import type { ChatStreamEvent } from '../types/chat';
import { StreamParseError } from '../errors/stream-parse-error';

interface Run {
  data: unknown[];
  done: number;
  errors: StreamParseError[];
}

function collect(
  feedAll: (parser: ReturnType<typeof createDataLineParser>, run: Run) => void,
): Run {
  const run: Run = { data: [], done: 0, errors: [] };
  const parser = createDataLineParser({
    onData: (data) => run.data.push(data),
    onDone: () => (run.done += 1),
    onError: (error) => run.errors.push(error),
  });
  feedAll(parser, run);
  return run;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function feedBytesSplitAt(text: string, cuts: number[]): Run {
  const bytes = utf8(text);
  return collect((parser) => {
    let start = 0;
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      parser.feed(bytes.subarray(start, cut));
      start = cut;
    }
    parser.feed(bytes.subarray(start));
    parser.end();
  });
}

const REPLY =
  'data: {"type":"reply-start","roomId":"r1","userMessage":null,"messageId":"m1"}\n\n' +
  'data: {"type":"reply-delta","text":"Héllo, 世界 👋"}\r\n\r\n' +
  'data:{"type":"reply-delta","text":" and\\nmore"}\r\r' +
  ': keep-alive comment\n' +
  'event: ignored\n' +
  'data: \n' +
  'data: {"type":"reply-end","messageId":"m1"}\n\n' +
  'data: [DONE]\n\n';

const EXPECTED = [
  { type: 'reply-start', roomId: 'r1', userMessage: null, messageId: 'm1' },
  { type: 'reply-delta', text: 'Héllo, 世界 👋' },
  { type: 'reply-delta', text: ' and\nmore' },
  { type: 'reply-end', messageId: 'm1' },
];

describe('createDataLineParser', () => {
  it('parses data lines in one chunk and passes done once', () => {
    const run = feedBytesSplitAt(REPLY, []);
    expect(run.data).toEqual(EXPECTED);
    expect(run.done).toBe(1);
    expect(run.errors).toEqual([]);
  });

  it('gives the same events when the bytes are split at every boundary', () => {
    const length = utf8(REPLY).length;
    for (let cut = 0; cut <= length; cut += 1) {
      const run = feedBytesSplitAt(REPLY, [cut]);
      expect(run.data, `split at byte ${cut}`).toEqual(EXPECTED);
      expect(run.done).toBe(1);
    }
  });

  it('gives the same events when fed one byte at a time', () => {
    const length = utf8(REPLY).length;
    const run = feedBytesSplitAt(
      REPLY,
      Array.from({ length }, (_, index) => index),
    );
    expect(run.data).toEqual(EXPECTED);
  });

  it('gives the same events when text chunks are split at every character', () => {
    for (let cut = 0; cut <= REPLY.length; cut += 1) {
      const run = collect((parser) => {
        parser.feed(REPLY.slice(0, cut));
        parser.feed(REPLY.slice(cut));
        parser.end();
      });
      expect(run.data, `split at char ${cut}`).toEqual(EXPECTED);
    }
  });

  it('keeps a multi-byte character split across chunks whole', () => {
    const bytes = utf8('data: {"text":"🙂"}\n');
    const emojiStart = bytes.indexOf(0xf0);
    const run = feedBytesSplitAt('data: {"text":"🙂"}\n', [emojiStart + 1, emojiStart + 3]);
    expect(run.data).toEqual([{ text: '🙂' }]);
  });

  it('treats CRLF split between chunks as one line end', () => {
    const run = collect((parser) => {
      parser.feed('data: {"a":1}\r');
      parser.feed('\ndata: {"a":2}\r');
      parser.feed('\n');
      parser.end();
    });
    expect(run.data).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('accepts a lone CR as a line end', () => {
    const run = collect((parser) => {
      parser.feed('data: {"a":1}\rdata: {"a":2}\r');
      parser.end();
    });
    expect(run.data).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('skips blank data lines', () => {
    const run = collect((parser) => {
      parser.feed('data:\ndata: \ndata:\t \ndata: {"a":1}\n');
      parser.end();
    });
    expect(run.data).toEqual([{ a: 1 }]);
    expect(run.errors).toEqual([]);
  });

  it('parses a trailing partial line at the end', () => {
    const run = collect((parser, partial) => {
      parser.feed('data: {"a":1}\ndata: {"a"');
      parser.feed(':2}');
      expect(partial.data).toEqual([{ a: 1 }]);
      parser.end();
    });
    expect(run.data).toEqual([{ a: 1 }, { a: 2 }]);
    expect(run.done).toBe(1);
  });

  it('reports a malformed line through onError and goes on', () => {
    const run = collect((parser) => {
      parser.feed('data: {"a":1}\ndata: {oops\ndata: {"a":2}\n');
      parser.end();
    });
    expect(run.data).toEqual([{ a: 1 }, { a: 2 }]);
    expect(run.errors).toHaveLength(1);
    expect(StreamParseError.isInstance(run.errors[0])).toBe(true);
    expect(run.errors[0]?.line).toBe('data: {oops');
  });

  it('does not throw on a malformed line without onError', () => {
    const parser = createDataLineParser({ onData: () => {} });
    expect(() => {
      parser.feed('data: nope\n');
      parser.end();
    }).not.toThrow();
  });

  it('passes done at [DONE] and ignores whatever follows', () => {
    const run = collect((parser, sofar) => {
      parser.feed('data: {"a":1}\ndata: [DONE]\n');
      expect(sofar.done).toBe(1);
      parser.feed('data: {"a":2}\n');
      parser.end();
    });
    expect(run.data).toEqual([{ a: 1 }]);
    expect(run.done).toBe(1);
  });

  it('passes done at the end of a stream without [DONE]', () => {
    const run = collect((parser) => {
      parser.feed('data: {"a":1}\n');
      parser.end();
    });
    expect(run.done).toBe(1);
  });

  it('drops a byte-order mark at the start of text and of bytes', () => {
    const text = '\uFEFFdata: {"a":1}\n';
    expect(collect((parser) => (parser.feed(text), parser.end())).data).toEqual([{ a: 1 }]);
    expect(feedBytesSplitAt(text, [1, 2]).data).toEqual([{ a: 1 }]);
  });

  it('ignores lines that are not data lines', () => {
    const run = collect((parser) => {
      parser.feed('id: 1\nretry: 10\n:comment\ndatum: {"a":1}\nevent: x\n\n');
      parser.end();
    });
    expect(run.data).toEqual([]);
    expect(run.errors).toEqual([]);
  });

  it('starts over after reset', () => {
    const run = collect((parser) => {
      parser.feed('data: {"a":1}\ndata: [DONE]\ndata: {"half');
      parser.reset();
      parser.feed('data: {"a":2}\n');
      parser.end();
    });
    expect(run.data).toEqual([{ a: 1 }, { a: 2 }]);
    expect(run.done).toBe(2);
  });
});

describe('createDataLineParser properties', () => {
  const event = fc.oneof(
    fc.record({ type: fc.constant('reply-delta'), text: fc.string({ unit: 'grapheme' }) }),
    fc.record({ type: fc.constant('reply-start'), messageId: fc.uuid() }),
    fc.record({ type: fc.constant('error'), message: fc.string({ unit: 'binary' }) }),
  );
  const lineEnd = fc.constantFrom('\n', '\r\n', '\r');

  it('round-trips arbitrary events under arbitrary chunkings and line ends', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(event, lineEnd, fc.boolean()), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        (items, rawCuts, endWithDone) => {
          let body = '';
          for (const [item, end, blankAfter] of items) {
            body += `data: ${JSON.stringify(item)}${end}`;
            if (blankAfter) body += end;
          }
          if (endWithDone) body += 'data: [DONE]\n\n';
          const length = utf8(body).length;
          const cuts = rawCuts.map((cut) => (length === 0 ? 0 : cut % (length + 1)));
          const run = feedBytesSplitAt(body, cuts);
          expect(run.data).toEqual(items.map(([item]) => item));
          expect(run.done).toBe(1);
          expect(run.errors).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('round-trips when the last line has no line end', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 10 }), (items) => {
        const body = items.map((item) => `data: ${JSON.stringify(item)}`).join('\n');
        const run = feedBytesSplitAt(body, [Math.floor(body.length / 2)]);
        expect(run.data).toEqual(items);
      }),
    );
  });
});

describe('createDataLineParser types', () => {
  it('hands onData the type the caller names, and unknown when it names none', () => {
    const events: ChatStreamEvent[] = [];
    const parser = createDataLineParser<ChatStreamEvent>({
      onData: (event) => {
        expectTypeOf(event).toEqualTypeOf<ChatStreamEvent>();
        // Narrowing on the event's type needs no cast.
        if (event.type === 'reply-delta') expectTypeOf(event.text).toEqualTypeOf<string>();
        events.push(event);
      },
    });
    parser.feed('data: {"type":"reply-delta","text":"Hi"}\n');
    parser.end();
    expect(events).toEqual([{ type: 'reply-delta', text: 'Hi' }]);

    // Without a type argument: as before, the parsed JSON is unknown.
    createDataLineParser({ onData: (data) => expectTypeOf(data).toEqualTypeOf<unknown>() });
    expectTypeOf<Parameters<DataLineParserCallbacks['onData']>[0]>().toEqualTypeOf<unknown>();
    // The type argument is inferred from an annotated callback, too.
    const inferred = { onData: (_event: ChatStreamEvent) => {} };
    expectTypeOf(createDataLineParser(inferred)).toEqualTypeOf(
      createDataLineParser<ChatStreamEvent>(inferred),
    );
    expectTypeOf<DataLineParserCallbacks<ChatStreamEvent>['onData']>().toEqualTypeOf<
      (data: ChatStreamEvent) => void
    >();
  });
});
