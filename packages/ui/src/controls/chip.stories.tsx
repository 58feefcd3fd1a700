import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Chip, Tag } from './chip';
import { Flex } from '../layout/primitives';

const meta = {
  title: 'Controls/Chip',
  component: Chip,
  subcomponents: { Tag },
  tags: ['autodocs'],
  args: { children: 'fantasy', selected: false, onSelectedChange: fn() },
  parameters: {
    docs: {
      description: {
        component:
          "A `Chip` is a toggle for filters (tags, genders): pressed or not, by mouse or keyboard. A `Tag` is the same shape but only shows a word, e.g. a mate's tags on its card.",
      },
    },
  },
} satisfies Meta<typeof Chip>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Off, on, and a plain tag. */
export const Variants: Story = {
  render: (args) => (
    <Flex gap={2} align="center">
      <Chip {...args} selected={false}>
        romance
      </Chip>
      <Chip {...args} selected>
        fantasy
      </Chip>
      <Tag>mystery</Tag>
    </Flex>
  ),
};
export const Off: Story = {};
export const On: Story = { args: { selected: true } };
export const PlainTag: Story = { render: () => <Tag>mystery</Tag> };

function Chips() {
  const [selected, setSelected] = useState<string[]>(['fantasy']);
  const toggle = (tag: string) =>
    setSelected((list) => (list.includes(tag) ? list.filter((t) => t !== tag) : [...list, tag]));
  return (
    <Flex gap={2} wrap>
      {['fantasy', 'romance', 'mystery'].map((tag) => (
        <Chip key={tag} selected={selected.includes(tag)} onSelectedChange={() => toggle(tag)}>
          {tag}
        </Chip>
      ))}
    </Flex>
  );
}

/** A click turns "romance" on; Space turns it off again; "fantasy" stays on. */
export const ToggleWithMouseAndKeyboard: Story = {
  tags: ['!autodocs'],
  render: () => <Chips />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const romance = canvas.getByRole('button', { name: 'romance' });
    await expect(romance).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(romance);
    await expect(romance).toHaveAttribute('aria-pressed', 'true');
    romance.focus();
    await userEvent.keyboard(' ');
    await expect(romance).toHaveAttribute('aria-pressed', 'false');
    await expect(canvas.getByRole('button', { name: 'fantasy' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  },
};
