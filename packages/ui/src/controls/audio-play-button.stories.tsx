import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { AudioPlayButton } from './audio-play-button';

// A tenth of a second of silence, as a WAV data URL: a real, playable file.
const SILENCE = `data:audio/wav;base64,${btoa(String.fromCharCode(...[82, 73, 70, 70, 36, 8, 0, 0, 87, 65, 86, 69, 102, 109, 116, 32, 16, 0, 0, 0, 1, 0, 1, 0, 64, 31, 0, 0, 64, 31, 0, 0, 1, 0, 8, 0, 100, 97, 116, 97, 0, 8, 0, 0], ...new Array(2048).fill(128)))}`;

const meta = {
  title: 'Controls/AudioPlayButton',
  component: AudioPlayButton,
  tags: ['autodocs'],
  args: { loadSource: fn(async () => SILENCE) },
  parameters: {
    docs: {
      description: {
        component:
          "Plays a message's voice. The audio is fetched on the first press (`loadSource`) and reused afterwards; while it plays the button stops it.",
      },
    },
  },
} satisfies Meta<typeof AudioPlayButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Ready: Story = {};

/** Plays once, then again from the same source (fetched only once). */
export const PlayTwice: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Play voice' }));
    await expect(args.loadSource).toHaveBeenCalledOnce();
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Play voice' })).toBeVisible(), {
      timeout: 3000,
    });
    await userEvent.click(canvas.getByRole('button', { name: 'Play voice' }));
    await expect(args.loadSource).toHaveBeenCalledOnce();
  },
};
