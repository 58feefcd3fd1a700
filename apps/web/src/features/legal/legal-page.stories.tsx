import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { expectChrome, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Legal and help', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** A legal page: its title, a lead and titled sections, and the footer's links to the others. */
const legal = (path: string, title: string, signedIn = false): Story => ({
  parameters: { app: { path, signedIn } },
  play: async ({ canvas, canvasElement, loaded }) => {
    await expect(await canvas.findByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(canvas.getAllByRole('heading', { level: 2 }).length).toBeGreaterThan(2);
    await expectChrome(canvasElement, loaded.app as StoryApp);
    const footer = within(canvas.getByRole('contentinfo'));
    await expect(footer.getByRole('link', { name: 'Terms of use' })).toHaveAttribute(
      'href',
      '#/terms-of-use',
    );
  },
});

export const Privacy: Story = legal('/privacy-notice', 'Privacy notice');
export const Terms: Story = legal('/terms-of-use', 'Terms of use', true);
export const Guidelines: Story = legal('/community-guidelines', 'Community guidelines');
export const Faq: Story = legal('/faq', 'Frequently asked questions', true);

/** The texts follow the interface language. */
export const Spanish: Story = {
  parameters: { app: { path: '/privacy-notice', language: 'es' } },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Aviso de privacidad' }),
    ).toBeVisible();
  },
};

/** And in French. */
export const French: Story = {
  parameters: { app: { path: '/community-guidelines', language: 'fr' } },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Règles de la communauté' }),
    ).toBeVisible();
    await expect(canvas.getByRole('heading', { level: 2, name: 'Jamais autorisé' })).toBeVisible();
  },
};

/** The FAQ sends a person who wants to leave to the profile's "Delete my account…", not to a letter. */
export const FaqDeleteAccount: Story = {
  parameters: { app: { path: '/faq' } },
  play: async ({ canvas }) => {
    const heading = await canvas.findByRole('heading', {
      level: 2,
      name: 'How do I delete my account?',
    });
    const answer = heading.parentElement!;
    await expect(answer).toHaveTextContent('Delete my account…');
    await expect(answer).not.toHaveTextContent('Write to us');
  },
};
