import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { AppFrame } from './app-frame';
import { Header } from './header';
import { Footer } from './footer';
import { FOOTER_LINKS } from './footer.stories';
import { Text } from '../layout/primitives';

const meta = {
  title: 'Shell/AppFrame',
  component: AppFrame,
  tags: ['autodocs'],
  args: {
    header: (
      <Header
        homeHref="#/"
        onSearch={fn()}
        profileHref="#/profile"
        languages={{ en: 'English', es: 'Español' }}
        language="en"
        onLanguageChange={fn()}
        onSignIn={fn()}
        user={null}
      />
    ),
    footer: <Footer links={FOOTER_LINKS} note="© 2026 Mates — open source" />,
    children: Array.from({ length: 40 }, (_, index) => <Text key={index}>Line {index + 1}</Text>),
  },
  parameters: {
    layout: 'fullscreen',
    docs: {
      story: { inline: false, iframeHeight: 480 },
      description: {
        component:
          'The frame of every screen: the header on top, then one scrolling main container (named "Main content") with the footer after the content.',
      },
    },
  },
} satisfies Meta<typeof AppFrame>;
export default meta;
type Story = StoryObj<typeof meta>;

export const WithHeaderAndFooter: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('banner')).toBeVisible();
    await expect(canvas.getByRole('main', { name: 'Main content' })).toBeVisible();
    await expect(canvas.getByRole('contentinfo')).toBeInTheDocument();
  },
};
export const WithoutHeader: Story = { args: { header: undefined } };

/** By keyboard: the first Tab stop is "Skip to content", which puts the focus on the main container. */
export const SkipToContent: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.tab();
    const skip = canvas.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toHaveFocus();
    await expect(skip).toBeVisible();
    await userEvent.keyboard('{Enter}');
    await expect(canvas.getByRole('main', { name: 'Main content' })).toHaveFocus();
  },
};
