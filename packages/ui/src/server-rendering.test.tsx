import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createMateSummaryFixture } from '@mates/api-client/msw';
import { Button, Chip, EmptyState, getCssText, Heading, MateCard, ThemeProvider } from './index';

/** The Stitches class names in server-rendered HTML (`mates-c-` names; `-PJLV` styles nothing). */
function stitchesClassNames(html: string): string[] {
  const names = [...html.matchAll(/class="([^"]*)"/g)].flatMap((match) => match[1]!.split(' '));
  return [
    ...new Set(names.filter((name) => name.startsWith('mates-c-') && name !== 'mates-c-PJLV')),
  ];
}

describe('server rendering', () => {
  const html = renderToString(
    <ThemeProvider>
      <Heading as="h1" size={1}>
        Mates
      </Heading>
      <Button variant="soft">Sign in</Button>
      <Chip selected onSelectedChange={() => {}}>
        Romance
      </Chip>
      <MateCard mate={createMateSummaryFixture()} href="#/detail?mateId=mate-1" />
      <EmptyState title="Nothing here yet" />
    </ThemeProvider>,
  );
  const css = getCssText();

  it('renders the components with their class names', () => {
    expect(html).toContain('Sign in');
    expect(html).toContain(createMateSummaryFixture().name);
    expect(stitchesClassNames(html).length).toBeGreaterThan(10);
  });

  it('puts the style of every rendered class name into getCssText()', () => {
    const missing = stitchesClassNames(html).filter((name) => !css.includes(`.${name}`));
    expect(missing).toEqual([]);
  });

  it('includes the theme tokens, prefixed, and styles only inside the container', () => {
    expect(css).toContain('--mates-colors-bg:#121016');
    expect(css).not.toContain('--colors-bg');
    // No rule for the page itself: not <body>, not <html>, not every focused element.
    expect(css).not.toMatch(/(^|[}{,])\s*(body|html|:root\s*:focus-visible|:focus-visible)\s*[{,]/);
    expect(css).toMatch(/:where\(\.mates-scope\) :focus-visible\{[^}]*box-shadow/);
    expect(html).toMatch(
      /^<div class="mates-scope mates-root mates-t-\w+" data-mates-theme="dark">/,
    );
  });
});
