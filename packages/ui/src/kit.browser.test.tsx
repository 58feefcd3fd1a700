import { afterEach, describe, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { createRoot, type Root } from 'react-dom/client';
import { act, type ReactNode } from 'react';
import { createMateSummariesFixture, createPackageFixture } from '@mates/api-client/msw';
import { ThemeProvider } from './theme/theme-provider';
import { Button } from './controls/button';
import { PasswordField, TextField } from './controls/text-field';
import { Chip } from './controls/chip';
import { MateCard } from './catalog/mate-card';
import { MateGrid } from './catalog/mate-grid';
import { PackageCard } from './catalog/package-card';
import { ChatBubble } from './chat/chat-bubble';
import { Header } from './shell/header';
import { Footer } from './shell/footer';
import { Stack } from './layout/primitives';
import { Dialog } from './feedback/dialog';
import { Select } from './controls/select';

let root: Root | null = null;
let host: HTMLElement | null = null;

async function show(node: ReactNode, theme: 'dark' | 'light' = 'dark') {
  host = document.createElement('div');
  host.setAttribute('data-testid', 'host');
  host.style.display = 'inline-block';
  host.style.padding = '16px';
  document.body.append(host);
  root = createRoot(host);
  // On the themed page, as the Mates app draws it (the baselines are of that look).
  await act(async () =>
    root!.render(
      <ThemeProvider theme={theme} page>
        {node}
      </ThemeProvider>,
    ),
  );
  await Promise.all([...host.querySelectorAll('img')].map(loaded));
  await document.fonts.ready;
}

/**
 * Waits until `img` has loaded and decoded, so a screenshot never catches a portrait half
 * drawn or not yet there. Portraits load lazily (the browser starts them only near the
 * viewport), so the test makes each one eager; a picture that fails fails the test rather
 * than a baseline being compared without it.
 */
async function loaded(img: HTMLImageElement): Promise<void> {
  img.loading = 'eager';
  if (!img.complete) {
    await new Promise((resolve, reject) => {
      img.addEventListener('load', resolve, { once: true });
      img.addEventListener('error', () => reject(new Error(`${img.src} did not load`)), {
        once: true,
      });
    });
  }
  if (img.naturalWidth === 0) throw new Error(`${img.src} did not load`);
  await img.decode();
}

afterEach(async () => {
  await act(async () => root?.unmount());
  host?.remove();
  root = null;
  host = null;
});

const mates = createMateSummariesFixture(8);
const USER = { name: 'Ada Lovelace', avatar: null, chats: 42, goldCoins: 7 };
const headerProps = {
  homeHref: '#/',
  onSearch: () => {},
  profileHref: '#/profile',
  places: [
    { href: '#/recent-chats', label: 'Recent chats' },
    { href: '#/favorite', label: 'Favorites' },
    { href: '#/mine', label: 'My mates and personas' },
    { href: '#/user-subscription', label: 'Plan and balance' },
  ],
  languages: { en: 'English', es: 'Español' },
  language: 'en',
  onLanguageChange: () => {},
  onSignIn: () => {},
};

const KEY_PARTS: [string, () => ReactNode][] = [
  [
    'controls',
    () => (
      <Stack gap={3}>
        <Button>Continue</Button>
        <Button variant="soft">Soft</Button>
        <Button variant="danger">Delete</Button>
        <TextField label="Email address" defaultValue="ada@example.com" />
        <PasswordField label="Password" defaultValue="secret" error="Too short." />
        <Chip selected onSelectedChange={() => {}}>
          fantasy
        </Chip>
      </Stack>
    ),
  ],
  [
    'mate-card',
    () => (
      <div style={{ width: 220 }}>
        <MateCard mate={mates[0]!} href="#" favorite onFavoriteChange={() => {}} />
      </div>
    ),
  ],
  [
    'package-card',
    () => (
      <div style={{ width: 300 }}>
        <PackageCard pkg={createPackageFixture()} highlighted onChoose={() => {}} />
      </div>
    ),
  ],
  [
    'chat',
    () => (
      <div style={{ width: 420, display: 'flex', flexDirection: 'column', gap: 12 }}>
        <ChatBubble role="mate" speaker="Lyra" content="*She smiles.* Welcome **back**." />
        <ChatBubble role="user" speaker="You" content="I brought the map." />
        <ChatBubble role="mate" speaker="Lyra" content="Show me" status="partial" />
      </div>
    ),
  ],
];

describe.each(['dark', 'light'] as const)('visual baselines, %s theme', (theme) => {
  // On a loaded machine two screenshots in a row can take more than the default 5 s to agree
  // (a CI run failed "Could not capture a stable screenshot within 5000ms"): the waits are
  // longer, the comparison the same.
  test.each(KEY_PARTS)(
    '%s',
    async (name, render) => {
      await show(render(), theme);
      // A handful of glyph-edge pixels can differ between runs of software rendering; a changed
      // colour, spacing or part moves thousands.
      await expect
        .element(page.getByTestId('host'), { timeout: 25_000 })
        .toMatchScreenshot(`${name}-${theme}`, {
          comparatorName: 'pixelmatch',
          comparatorOptions: { allowedMismatchedPixels: 40 },
          timeout: 20_000,
        });
    },
    40_000,
  );
});

describe.each([360, 768, 1024, 1440])('responsive at %i px', (width) => {
  test('the header fits, and shows benefits from tablet width up', async () => {
    await page.viewport(width, 800);
    await show(
      <div style={{ width: width - 32 }}>
        <Header {...headerProps} user={USER} />
      </div>,
    );
    const banner = page.getByRole('banner').element() as HTMLElement;
    expect(banner.scrollWidth).toBeLessThanOrEqual(banner.clientWidth);
    const benefits = page.getByText('42 chats').element() as HTMLElement;
    expect(getComputedStyle(benefits.parentElement!).display === 'none').toBe(width < 768);
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(width);
  });

  test('the mate grid uses the width: two columns on a phone, more on wider screens', async () => {
    await page.viewport(width, 800);
    await show(
      <div style={{ width: width - 32 }}>
        <MateGrid label="Recommended mates">
          {mates.map((mate) => (
            <MateCard key={mate.mateId} mate={mate} href="#" />
          ))}
        </MateGrid>
      </div>,
    );
    const cards = page.getByRole('article').elements();
    const rows = new Map<number, number>();
    for (const card of cards) {
      const top = Math.round(card.getBoundingClientRect().top);
      rows.set(top, (rows.get(top) ?? 0) + 1);
    }
    const perRow = Math.max(...rows.values());
    // Two columns on a phone; on wider screens as many 180 px columns as fit (at least 3).
    if (width < 768) expect(perRow).toBe(2);
    else expect(perRow).toBeGreaterThanOrEqual(width >= 1440 ? 6 : 3);
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(width);
  });
});

test('the footer lists the legal and help pages as a contentinfo landmark', async () => {
  await show(<Footer links={[{ href: '#/faq', label: 'FAQ' }]} note="© Mates" />);
  await expect.element(page.getByRole('contentinfo')).toBeVisible();
});

test('a select opened inside a dialog sits above its overlay, where a click lands', async () => {
  let chosen = '';
  await show(
    <Dialog open onOpenChange={() => {}} title="Hide this mate">
      <Select
        label="Reason"
        value=""
        onValueChange={(value) => (chosen = value)}
        options={[
          { value: 'copyright', label: 'Copies someone else’s work' },
          { value: 'other', label: 'Something else' },
        ]}
      />
    </Dialog>,
  );
  await page.getByRole('combobox', { name: 'Reason' }).click();
  const option = page.getByRole('option', { name: 'Something else' }).element();
  const box = option.getBoundingClientRect();
  // What a pointer at the option's centre hits: the option, not the dialog's overlay.
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  expect(option.contains(hit)).toBe(true);
  await page.getByRole('option', { name: 'Something else' }).click();
  expect(chosen).toBe('other');
});

test('a Stack or Flex rendered as a list lines up with its heading: no bullets, no indent', async () => {
  await show(
    <Stack as="ul" aria-label="Your mates">
      <li>Marisol Vega</li>
    </Stack>,
  );
  const list = page.getByRole('list', { name: 'Your mates' }).element();
  const style = getComputedStyle(list);
  expect([style.paddingLeft, style.marginTop, style.listStyleType]).toEqual(['0px', '0px', 'none']);
});
