import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Button, ButtonLink, IconButton } from './button';
import { CloseIcon } from './icons';
import { Flex } from '../layout/primitives';

const meta = {
  title: 'Controls/Button',
  component: Button,
  args: { children: 'Continue', onClick: fn() },
} satisfies Meta<typeof Button>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Solid: Story = {
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Continue' });
    await userEvent.keyboard('{Tab}');
    await expect(button).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onClick).toHaveBeenCalledOnce();
  },
};
export const Soft: Story = { args: { variant: 'soft' } };
export const Ghost: Story = { args: { variant: 'ghost' } };
export const Danger: Story = { args: { variant: 'danger', children: 'Delete' } };
export const Small: Story = { args: { size: 'small' } };
export const Block: Story = { args: { block: true }, parameters: { layout: 'padded' } };
export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvasElement, args }) => {
    await userEvent.click(within(canvasElement).getByRole('button'), { pointerEventsCheck: 0 });
    await expect(args.onClick).not.toHaveBeenCalled();
  },
};

export const Icon: StoryObj<typeof IconButton> = {
  render: () => (
    <Flex gap={2}>
      <IconButton label="Close" icon={<CloseIcon />} />
      <IconButton label="Close" icon={<CloseIcon />} variant="soft" size="small" />
    </Flex>
  ),
  play: async ({ canvasElement }) => {
    const buttons = within(canvasElement).getAllByRole('button', { name: 'Close' });
    await expect(buttons).toHaveLength(2);
  },
};

export const AsLink: StoryObj<typeof ButtonLink> = {
  render: () => (
    <ButtonLink href="#/" variant="soft">
      Back to discover
    </ButtonLink>
  ),
  play: async ({ canvasElement }) => {
    const link = within(canvasElement).getByRole('link', { name: 'Back to discover' });
    await expect(link).toHaveAttribute('href', '#/');
    link.focus();
    await expect(link).toHaveFocus();
  },
};
