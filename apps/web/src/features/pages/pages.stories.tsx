import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { expectChrome, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Not found', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** Any other path: the not-found page, with header and footer. */
export const NotFound: Story = {
  parameters: { app: { path: '/no/such/page' } },
  play: async ({ canvas, canvasElement, loaded }) => {
    await expect(await canvas.findByText('This page does not exist')).toBeVisible();
    await expectChrome(canvasElement, loaded.app as StoryApp);
  },
};
