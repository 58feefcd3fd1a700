import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { createMateSummaryFixture } from '@mates/api-client/msw';
import { styled } from '../theme/stitches.config';
import { CallStage } from './call-stage';
import { CallCaptions, type CallCaptionLine } from './call-captions';
import { CallControls } from './call-controls';

const LYRA = createMateSummaryFixture({}, 0);
const Screen = styled('div', {
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '$3',
  minHeight: '100vh',
  padding: '$3',
  backgroundColor: '$bg',
});

const STAGE_LABELS = { personSpeaking: "You're speaking", muted: 'Muted' };
const CAPTION_LABELS = { region: 'Live captions', cut: '(cut)' };
const CONTROL_LABELS = { mute: 'Mute', hangUp: 'Hang up' };

const LINES: CallCaptionLine[] = [
  { id: 'u1', who: 'person', name: 'You', text: 'Tell me about your day.' },
  {
    id: 'r1',
    who: 'mate',
    name: LYRA.name,
    text: 'Oh, it was lovely. I spent the morning by the lake,',
  },
];

interface CallScreenArgs {
  speaking: 'mate' | 'person' | 'none';
  status: string;
  muted: boolean;
  lines: CallCaptionLine[];
  src: string | null;
  onHangUp: () => void;
}

/** The three parts together, as the app's call view puts them. */
function CallScreen({
  speaking,
  status,
  muted: initiallyMuted,
  lines,
  src,
  onHangUp,
}: CallScreenArgs) {
  const [muted, setMuted] = useState(initiallyMuted);
  return (
    <Screen>
      <CallStage
        name={LYRA.name}
        src={src}
        speaking={muted && speaking === 'person' ? 'none' : speaking}
        status={status}
        muted={muted}
        labels={STAGE_LABELS}
      />
      <CallCaptions lines={lines} labels={CAPTION_LABELS} />
      <CallControls
        muted={muted}
        onMutedChange={setMuted}
        onHangUp={onHangUp}
        labels={CONTROL_LABELS}
      />
    </Screen>
  );
}

const meta = {
  title: 'Call/CallScreen',
  component: CallScreen,
  tags: ['autodocs'],
  args: {
    speaking: 'none',
    status: 'Listening',
    muted: false,
    lines: [],
    src: LYRA.avatar,
    onHangUp: fn(),
  },
  parameters: {
    layout: 'fullscreen',
    docs: {
      description: {
        component:
          "A voice call's parts: `CallStage` (the mate's portrait, a ring for who speaks, a Muted badge), `CallCaptions` (a polite live log of both sides, a cut reply marked) and `CallControls` (Mute, a toggle, and Hang up).",
      },
    },
  },
} satisfies Meta<typeof CallScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Connecting: nobody speaks yet. */
export const Connecting: Story = {
  args: { status: 'Connecting…' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: LYRA.name })).toBeVisible();
    await expect(canvas.getByText('Connecting…')).toBeVisible();
  },
};
/** Listening: the person may speak. */
export const Listening: Story = {};
/** The person speaks: their badge pulses. */
export const PersonSpeaking: Story = {
  args: { speaking: 'person', status: 'Listening' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText("You're speaking")).toBeVisible();
  },
};
/** The mate speaks, with live captions of both sides. */
export const MateSpeaking: Story = {
  args: { speaking: 'mate', status: 'Speaking', lines: LINES },
  play: async ({ canvasElement }) => {
    const log = within(canvasElement).getByRole('log', { name: 'Live captions' });
    await expect(log).toHaveAttribute('aria-live', 'polite');
    await expect(log).toHaveTextContent('Tell me about your day.');
  },
};
/** A reply the person cut short: marked. */
export const CutReply: Story = {
  args: {
    status: 'Listening',
    speaking: 'person',
    lines: [
      { ...LINES[1]!, text: 'Oh, it was lovely.', cut: true },
      { id: 'u2', who: 'person', name: 'You', text: 'Wait, which lake?' },
    ],
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('(cut)')).toBeVisible();
  },
};
/** Muted: a badge, and the toggle pressed; pressing it again unmutes. */
export const Muted: Story = {
  args: { muted: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const mute = canvas.getByRole('button', { name: 'Mute' });
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await expect(canvas.getByText('Muted')).toBeVisible();
    await userEvent.click(mute);
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
  },
};
/** Without a portrait: the initials. */
export const Initials: Story = { args: { src: null } };
/** Keyboard: Tab reaches the captions (to scroll them), Mute, then Hang up; Enter hangs up. */
export const Keyboard: Story = {
  args: { lines: LINES },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.tab();
    await expect(canvas.getByRole('log', { name: 'Live captions' })).toHaveFocus();
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Mute' })).toHaveFocus();
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Hang up' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onHangUp).toHaveBeenCalledOnce();
  },
};
/** A phone. */
export const Phone: Story = {
  args: { speaking: 'mate', status: 'Speaking', lines: LINES },
  globals: { viewport: { value: 'mobile1', isRotated: false } },
};
