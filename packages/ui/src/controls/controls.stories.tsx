import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { Switch } from './switch';
import { Select } from './select';
import { Tabs } from './tabs';
import { Tooltip } from './tooltip';
import { Rating } from './rating';
import { AudioPlayButton } from './audio-play-button';
import { Button } from './button';
import { styled } from '../theme/stitches.config';

const Frame = styled('div', { width: '320px' });
const meta = { title: 'Controls/More' } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

function MatureSwitch() {
  const [on, setOn] = useState(false);
  return (
    <Frame>
      <Switch label="Show mature content" checked={on} onCheckedChange={setOn} />
    </Frame>
  );
}

export const SwitchNfsw: Story = {
  render: () => <MatureSwitch />,
  play: async ({ canvasElement }) => {
    const toggle = within(canvasElement).getByRole('switch', { name: 'Show mature content' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    toggle.focus();
    await userEvent.keyboard(' ');
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
  },
};

function LanguageSelect({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState('en');
  return (
    <Frame>
      <Select
        label="Language"
        value={value}
        onValueChange={(next) => (setValue(next), onChange(next))}
        options={[
          { value: 'en', label: 'English' },
          { value: 'es', label: 'Español' },
        ]}
      />
    </Frame>
  );
}

export const SelectLanguage: StoryObj<{ onChange: (value: string) => void }> = {
  args: { onChange: fn() },
  render: (args) => <LanguageSelect onChange={args.onChange} />,
  play: async ({ canvasElement, args }) => {
    const trigger = within(canvasElement).getByRole('combobox', { name: 'Language' });
    await expect(trigger).toHaveTextContent('English');
    await userEvent.click(trigger);
    const option = await within(canvasElement.ownerDocument.body).findByRole('option', {
      name: 'Español',
    });
    await userEvent.click(option);
    await expect(args.onChange).toHaveBeenCalledWith('es');
    await waitFor(() => expect(trigger).toHaveTextContent('Español'));
  },
};

export const TabsKeyboard: Story = {
  render: () => (
    <Frame>
      <Tabs
        label="Profile sections"
        tabs={[
          { value: 'personas', label: 'Personas', content: 'Your personas' },
          { value: 'settings', label: 'Settings', content: 'Your settings' },
        ]}
      />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    canvas.getByRole('tab', { name: 'Personas' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect(canvas.getByRole('tab', { name: 'Settings' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(canvas.getByRole('tabpanel')).toHaveTextContent('Your settings');
  },
};

export const TooltipOnFocus: Story = {
  render: () => (
    <Tooltip content="Chats left this month">
      <Button variant="soft">42</Button>
    </Tooltip>
  ),
  play: async ({ canvasElement }) => {
    await userEvent.tab();
    await expect(
      await within(canvasElement.ownerDocument.body).findByRole('tooltip'),
    ).toHaveTextContent('Chats left this month');
  },
};

function RateIt() {
  const [value, setValue] = useState(0);
  return <Rating label="Your rating" value={value} onValueChange={setValue} />;
}

export const RatingChoose: Story = {
  render: () => <RateIt />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: '4 stars' }));
    await expect(canvas.getByRole('button', { name: '4 stars' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  },
};

export const RatingReadOnly: Story = {
  render: () => <Rating label="Average rating" value={4} />,
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByRole('img', { name: 'Average rating: 4 stars' }),
    ).toBeVisible();
  },
};

// A tenth of a second of silence, as a WAV data URL: a real, playable file.
const SILENCE = `data:audio/wav;base64,${btoa(String.fromCharCode(...[82, 73, 70, 70, 36, 8, 0, 0, 87, 65, 86, 69, 102, 109, 116, 32, 16, 0, 0, 0, 1, 0, 1, 0, 64, 31, 0, 0, 64, 31, 0, 0, 1, 0, 8, 0, 100, 97, 116, 97, 0, 8, 0, 0], ...new Array(2048).fill(128)))}`;

export const AudioPlay: StoryObj<{ loadSource: () => Promise<string> }> = {
  args: { loadSource: fn(async () => SILENCE) },
  render: (args) => <AudioPlayButton loadSource={args.loadSource} />,
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Play voice' }));
    await expect(args.loadSource).toHaveBeenCalledOnce();
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Play voice' })).toBeVisible(), {
      timeout: 3000,
    });
    await userEvent.click(canvas.getByRole('button', { name: 'Play voice' }));
    // The source is fetched once and reused.
    await expect(args.loadSource).toHaveBeenCalledOnce();
  },
};
