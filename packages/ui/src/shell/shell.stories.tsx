import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Header } from './header';
import { Footer } from './footer';
import { AppFrame } from './app-frame';
import { Text } from '../layout/primitives';

const LANGUAGES = { en: 'English', es: 'Español' };
const LINKS = [
  { href: '#/privacy-notice', label: 'Privacy notice' },
  { href: '#/terms-of-use', label: 'Terms of use' },
  { href: '#/community-guidelines', label: 'Community guidelines' },
  { href: '#/support', label: 'Support' },
  { href: '#/faq', label: 'FAQ' },
];

const meta = {
  title: 'Shell',
  component: Header,
  parameters: { layout: 'fullscreen' },
  args: {
    homeHref: '#/',
    searchHref: '#/search',
    profileHref: '#/profile',
    languages: LANGUAGES,
    language: 'en',
    onLanguageChange: fn(),
    onSignIn: fn(),
    user: null,
  },
} satisfies Meta<typeof Header>;
export default meta;
type Story = StoryObj<typeof meta>;

export const HeaderVisitor: Story = {
  play: async ({ canvasElement, args }) => {
    const banner = within(canvasElement).getByRole('banner');
    await userEvent.click(within(banner).getByRole('button', { name: 'Sign in' }));
    await expect(args.onSignIn).toHaveBeenCalledOnce();
    await userEvent.selectOptions(within(banner).getByRole('combobox', { name: 'Language' }), 'es');
    await expect(args.onLanguageChange).toHaveBeenCalledWith('es');
    await expect(within(banner).getByRole('link', { name: 'Search mates' })).toHaveAttribute(
      'href',
      '#/search',
    );
  },
};

export const HeaderSignedIn: Story = {
  args: { user: { name: 'Ada Lovelace', avatar: null, chats: 42, goldCoins: 7 } },
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

export const FooterLinks: StoryObj<typeof Footer> = {
  render: () => <Footer links={LINKS} note="© 2026 Mates — open source" />,
  play: async ({ canvasElement }) => {
    const footer = within(canvasElement).getByRole('contentinfo');
    const links = within(footer).getAllByRole('link');
    await expect(links.map((link) => link.textContent)).toEqual([
      'Privacy notice',
      'Terms of use',
      'Community guidelines',
      'Support',
      'FAQ',
    ]);
  },
};

/** The app's frame: header, the scrolling main container, the footer after the content. */
export const Frame: Story = {
  render: (args) => (
    <AppFrame
      header={<Header {...args} />}
      footer={<Footer links={LINKS} note="© 2026 Mates — open source" />}
    >
      {Array.from({ length: 40 }, (_, index) => (
        <Text key={index}>Line {index + 1}</Text>
      ))}
    </AppFrame>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('banner')).toBeVisible();
    await expect(canvas.getByRole('main', { name: 'Main content' })).toBeVisible();
    await expect(canvas.getByRole('contentinfo')).toBeInTheDocument();
  },
};
