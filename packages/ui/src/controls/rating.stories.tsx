import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { Rating } from './rating';
import { Stack } from '../layout/primitives';

const meta = {
  title: 'Controls/Rating',
  component: Rating,
  tags: ['autodocs'],
  args: { label: 'Average rating', value: 4 },
  parameters: {
    docs: {
      description: {
        component:
          'Zero to five stars. Without `onValueChange` it only shows a rating (an image named "4 stars"); with it, each star is a button.',
      },
    },
  },
} satisfies Meta<typeof Rating>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every value from 0 to 5, read-only. */
export const Variants: Story = {
  render: () => (
    <Stack gap={2}>
      {[0, 1, 2, 3, 4, 5].map((value) => (
        <Rating key={value} label={`Rated ${value}`} value={value} />
      ))}
    </Stack>
  ),
};

export const ReadOnly: Story = {
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByRole('img', { name: 'Average rating: 4 stars' }),
    ).toBeVisible();
  },
};

function RateIt() {
  const [value, setValue] = useState(0);
  return <Rating label="Your rating" value={value} onValueChange={setValue} />;
}

export const NotRatedYet: Story = { render: () => <RateIt /> };

/** A click on the fourth star rates four. */
export const ChooseFourStars: Story = {
  tags: ['!autodocs'],
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
