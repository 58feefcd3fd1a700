import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { expectChrome, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Planned and not found', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** A screen still to come says what will be there, with header and footer as docs/product.md says. */
const planned = (path: string, title: string, signedIn = false): Story => ({
  parameters: { app: { path, signedIn } },
  play: async ({ canvas, canvasElement, loaded }) => {
    await expect(await canvas.findByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(canvas.getByText('Coming to Mates')).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Back to discover' })).toHaveAttribute(
      'href',
      '#/',
    );
    await expectChrome(canvasElement, loaded.app as StoryApp);
  },
});

export const Subscription: Story = planned('/subscription', 'Packages');
export const SinglePackage: Story = planned('/single-package', 'Package');
export const UserSubscription: Story = planned('/user-subscription', 'Your plan', true);

/** Any other path: the not-found page, with header and footer. */
export const NotFound: Story = {
  parameters: { app: { path: '/no/such/page' } },
  play: async ({ canvas, canvasElement, loaded }) => {
    await expect(await canvas.findByText('This page does not exist')).toBeVisible();
    await expectChrome(canvasElement, loaded.app as StoryApp);
  },
};
