import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ImageChoices } from './image-choices';
import { styled } from '../theme/stitches.config';

const Frame = styled('div', { width: '360px' });

const picture = (hue: number) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 3"><rect width="2" height="3" fill="hsl(${hue} 60% 45%)"/></svg>`,
  )}`;
const OPTIONS = [0, 1, 2, 3].map((index) => ({
  value: `choice-${index}`,
  src: picture(index * 80),
  alt: `Portrait ${index + 1} of 4`,
}));

const meta = {
  title: 'Controls/Image choices',
  component: ImageChoices,
  tags: ['autodocs'],
  args: { label: 'Portrait', options: OPTIONS, value: null, onValueChange: fn() },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
  parameters: {
    docs: {
      description: {
        component:
          'A choice of one picture among several, such as a portrait: native radios under their pictures, so arrow keys move the choice and each picture is named by its alternative text.',
      },
    },
  },
} satisfies Meta<typeof ImageChoices>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NoneChosen: Story = {
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('group', { name: 'Portrait' })).toBeVisible();
    await expect(canvas.getAllByRole('radio')).toHaveLength(4);
  },
};
export const SecondChosen: Story = { args: { value: 'choice-1' } };
export const Disabled: Story = { args: { value: 'choice-0', disabled: true } };

function Picker() {
  const [value, setValue] = useState<string | null>('choice-0');
  return <ImageChoices label="Portrait" options={OPTIONS} value={value} onValueChange={setValue} />;
}

/** The arrow keys move the choice to the next picture. */
export const ChooseWithTheKeyboard: Story = {
  tags: ['!autodocs'],
  render: () => <Picker />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const first = await canvas.findByRole('radio', { name: 'Portrait 1 of 4' });
    first.focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect(canvas.getByRole('radio', { name: 'Portrait 2 of 4' })).toBeChecked();
  },
};
