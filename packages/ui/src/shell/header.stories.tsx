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
    searchHref: '#/search',
    profileHref: '#/profile',
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
          'The top bar of every page: logo, search, language, and either "Sign in" or the signed-in person\'s chats, gold coins and avatar (a link to the profile).',
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
    await expect(within(banner).getByRole('link', { name: 'Search mates' })).toHaveAttribute(
      'href',
      '#/search',
    );
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
