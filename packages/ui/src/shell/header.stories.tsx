import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { createCreatorFixture } from '@mates/api-client/msw';
import { Header } from './header';

const meta = {
  title: 'Shell/Header',
  component: Header,
  tags: ['autodocs'],
  args: {
    homeHref: '#/',
    onSearch: fn(),
    profileHref: '#/profile',
    places: [
      { href: '#/recent-chats', label: 'Recent chats' },
      { href: '#/favorite', label: 'Favorites', current: true },
      { href: '#/mine', label: 'My mates and personas' },
    ],
    languages: { en: 'English', es: 'Español' },
    language: 'en',
    onLanguageChange: fn(),
    onSignIn: fn(),
    user: null,
  },
  parameters: {
    layout: 'fullscreen',
    docs: {
      description: {
        component:
          'The top bar of every page: logo, a search box (Enter searches), language, and either "Sign in" or the signed-in person\'s places (links on wide screens, a menu on narrow ones), chats, gold coins and avatar (a link to the profile).',
      },
    },
  },
} satisfies Meta<typeof Header>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Visitor: Story = {
  play: async ({ canvasElement }) => {
    const banner = within(canvasElement).getByRole('banner');
    await expect(within(banner).getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(within(banner).getByRole('searchbox', { name: 'Search mates' })).toBeVisible();
    // A visitor has no places of their own yet.
    await expect(within(banner).queryByRole('navigation')).toBeNull();
  },
};

/** Typing in the search box and pressing Enter searches for the words (nothing is lost). */
export const SearchFromTheHeader: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement, args }) => {
    const banner = within(canvasElement).getByRole('banner');
    const box = within(banner).getByRole('searchbox', { name: 'Search mates' });
    await userEvent.type(box, '  lighthouse keeper {Enter}');
    await expect(args.onSearch).toHaveBeenCalledWith('lighthouse keeper');
  },
};

/** On a page with its own search field, the header leaves it out. */
export const WithoutSearch: Story = {
  tags: ['!autodocs'],
  args: { showSearch: false },
  play: async ({ canvasElement }) => {
    const banner = within(canvasElement).getByRole('banner');
    await expect(within(banner).queryByRole('searchbox')).toBeNull();
  },
};

export const SignedIn: Story = {
  args: {
    user: { name: 'Wren Calloway', avatar: createCreatorFixture().avatar, chats: 42, goldCoins: 7 },
  },
  play: async ({ canvasElement }) => {
    const banner = within(canvasElement).getByRole('banner');
    await expect(within(banner).queryByRole('button', { name: 'Sign in' })).toBeNull();
    await expect(within(banner).getByRole('link', { name: 'Your profile' })).toHaveAttribute(
      'href',
      '#/profile',
    );
    await expect(banner).toHaveTextContent('42 chats');
    await expect(banner).toHaveTextContent('7 gold coins');
    // On a wide screen the places are links, the current one marked.
    const places = within(banner).getByRole('navigation', { name: 'Menu' });
    await expect(within(places).getByRole('link', { name: 'Recent chats' })).toHaveAttribute(
      'href',
      '#/recent-chats',
    );
    await expect(within(places).getByRole('link', { name: 'Favorites' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  },
};

/** On a phone the places are behind one "Menu" button; the keyboard opens it, Escape closes it. */
export const PlacesMenuOnAPhone: Story = {
  tags: ['!autodocs'],
  args: SignedIn.args,
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  play: async ({ canvasElement }) => {
    const banner = within(canvasElement).getByRole('banner');
    await expect(within(banner).queryByRole('navigation')).toBeNull();
    const button = within(banner).getByRole('button', { name: 'Menu' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    button.focus();
    await userEvent.keyboard('{Enter}');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const places = within(banner).getByRole('navigation', { name: 'Menu' });
    const links = within(places).getAllByRole('link');
    await expect(links.map((link) => link.textContent)).toEqual([
      'Recent chats',
      'Favorites',
      'My mates and personas',
    ]);
    await expect(links[0]).toBeVisible();
    await expect(links[0]).toHaveAttribute('href', '#/recent-chats');
    await userEvent.tab();
    await expect(links[0]).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect(within(banner).queryByRole('navigation')).toBeNull();
    await expect(button).toHaveFocus();
  },
};

/** "Sign in" asks to sign in; the language menu asks for Spanish. */
export const SignInAndChangeLanguage: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement, args }) => {
    const banner = within(canvasElement).getByRole('banner');
    await userEvent.click(within(banner).getByRole('button', { name: 'Sign in' }));
    await expect(args.onSignIn).toHaveBeenCalledOnce();
    await userEvent.selectOptions(within(banner).getByRole('combobox', { name: 'Language' }), 'es');
    await expect(args.onLanguageChange).toHaveBeenCalledWith('es');
  },
};
