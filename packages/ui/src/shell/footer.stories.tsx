import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Footer } from './footer';

/** The footer links of the app, in their order. */
export const FOOTER_LINKS = [
  { href: '#/privacy-notice', label: 'Privacy notice' },
  { href: '#/terms-of-use', label: 'Terms of use' },
  { href: '#/community-guidelines', label: 'Community guidelines' },
  { href: '#/support', label: 'Support' },
  { href: '#/faq', label: 'FAQ' },
];

const meta = {
  title: 'Shell/Footer',
  component: Footer,
  tags: ['autodocs'],
  // The links are shared with the AppFrame stories, not a story of their own.
  excludeStories: ['FOOTER_LINKS'],
  args: { links: FOOTER_LINKS, note: '© 2026 Mates — open source' },
  parameters: {
    layout: 'fullscreen',
    docs: {
      description: {
        component:
          'The end of every page: the legal and help links, in the order the product gives them, and a short note.',
      },
    },
  },
} satisfies Meta<typeof Footer>;
export default meta;
type Story = StoryObj<typeof meta>;

export const LegalAndHelpLinks: Story = {
  play: async ({ canvasElement }) => {
    const footer = within(canvasElement).getByRole('contentinfo');
    const links = within(footer).getAllByRole('link');
    await expect(links.map((link) => link.textContent)).toEqual(
      FOOTER_LINKS.map((link) => link.label),
    );
  },
};
