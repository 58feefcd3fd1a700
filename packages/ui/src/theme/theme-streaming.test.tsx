import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { lazy, Suspense } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmptyState, getCssText, Heading, ThemeProvider } from '../index';

// The README's recipe for streaming rendering, as a server would write it. Its own file: the
// Stitches sheet is one per module graph, and the late part's styles must not be in it before.

/** Writes, before each chunk React streams, the CSS rendered since the last one. */
function withStyles(): Transform {
  let written = getCssText();
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const css = getCssText();
      if (css !== written) {
        written = css;
        this.push(`<style data-stitches>${css}</style>`);
      }
      done(null, chunk);
    },
  });
}

/** Renders the page as a stream, answering with every chunk written (the first is the head). */
function streamPage(page: React.ReactNode): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    const response = new PassThrough();
    response.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    response.on('end', () => resolve(chunks));
    const { pipe } = renderToPipeableStream(page, {
      onShellReady() {
        // The shell (the provider and its container among it) is rendered, not yet written:
        // the head carries its styles, the theme's variables first.
        response.write(
          `<!doctype html><html><head><style id="stitches">${getCssText()}</style></head><body><div id="root">`,
        );
        const styles = withStyles();
        styles.on('end', () => response.end('</div></body></html>'));
        styles.pipe(response, { end: false });
        pipe(styles);
      },
      onShellError: reject,
      onError: reject,
    });
  });
}

let arrive: () => void = () => {};
const arrived = new Promise<void>((resolve) => (arrive = resolve));
const Late = lazy(async () => {
  await arrived;
  return { default: () => <EmptyState title="Nothing here yet" tone="error" /> };
});

describe('streaming rendering in the light theme', () => {
  const streamed = streamPage(
    <ThemeProvider theme="light">
      <Heading as="h1">Mates</Heading>
      <Suspense fallback={<p>Loading</p>}>
        <Late />
      </Suspense>
    </ThemeProvider>,
  );
  setTimeout(arrive, 0);

  it('starts with the light theme: its variables in the head, its class on the shell', async () => {
    const html = (await streamed).join('');
    const head = html.slice(0, html.indexOf('<body>'));
    expect(head).toContain('.mates-light{--mates-colors-bg:#fbf9fe;');
    const shell = html.indexOf('<div class="mates-scope mates-root mates-light"');
    expect(shell).toBeGreaterThan(html.indexOf('</head>'));
    expect(html.indexOf('Loading')).toBeGreaterThan(shell);
  });

  it('gives a part that streams in later its styles before its HTML', async () => {
    const html = (await streamed).join('');
    const late = html.indexOf('Nothing here yet');
    const classes = /class="([^"]*)"[^>]*>(?:(?!<\/?div)[\s\S])*Nothing here yet/.exec(html);
    expect(late).toBeGreaterThan(html.indexOf('Loading'));
    const names = classes![1]!.split(' ').filter((name) => name.startsWith('mates-c-'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const rule = html.indexOf(`.${name}`);
      expect(rule).toBeGreaterThan(-1);
      expect(rule).toBeLessThan(late);
      // Not in the head: only the later style element could have carried it.
      expect(html.slice(0, html.indexOf('</head>'))).not.toContain(`.${name}`);
    }
  });
});
