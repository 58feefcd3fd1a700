import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { AudioPlayButton } from './audio-play-button';

const meta = {
  title: 'Controls/AudioPlayButton',
  component: AudioPlayButton,
  tags: ['autodocs'],
  args: { state: 'idle', onPlay: fn(), onStop: fn(), description: '1 gold coin the first time' },
  parameters: {
    docs: {
      description: {
        component:
          "A message's voice button. It plays nothing itself: the page's one voice player says its `state` and hears `onPlay`/`onStop`, so only one message plays at a time. The description (e.g. the cost) shows as a tooltip and is the button's accessible description.",
      },
    },
  },
} satisfies Meta<typeof AudioPlayButton>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Ready to play: pressing asks to play; the cost describes the button. */
export const Idle: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const button = canvas.getByRole('button', { name: 'Play voice' });
    await expect(button).toHaveAccessibleDescription('1 gold coin the first time');
    await userEvent.click(button);
    await expect(args.onPlay).toHaveBeenCalledOnce();
    await expect(args.onStop).not.toHaveBeenCalled();
  },
};

/** Hearing is free here. */
export const Free: Story = {
  args: { description: 'Free' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Play voice' })).toHaveAccessibleDescription(
      'Free',
    );
  },
};

/** Fetching the voice: busy; pressing stops. */
export const Loading: Story = {
  args: { state: 'loading' },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const button = canvas.getByRole('button', { name: 'Loading voice' });
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(button);
    await expect(args.onStop).toHaveBeenCalledOnce();
  },
};

/** Playing: the button stops it. */
export const Playing: Story = {
  args: { state: 'playing' },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Stop voice' }));
    await expect(args.onStop).toHaveBeenCalledOnce();
    await expect(args.onPlay).not.toHaveBeenCalled();
  },
};

/** It failed: the reason is read with the button, and pressing tries again. */
export const Failed: Story = {
  args: { state: 'error', error: 'Not enough gold coins.' },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const button = canvas.getByRole('button', { name: 'Voice failed — try again' });
    await expect(button).toHaveAccessibleDescription(
      'Not enough gold coins. 1 gold coin the first time',
    );
    await userEvent.click(button);
    await expect(args.onPlay).toHaveBeenCalledOnce();
  },
};

/** No description: the name is the only hint. */
export const Plain: Story = {
  args: { description: undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Play voice' })).toHaveAttribute(
      'title',
      'Play voice',
    );
  },
};
