import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Button, ButtonLink, IconButton } from './button';
import { CloseIcon } from './icons';
import { Flex, Stack } from '../layout/primitives';

const meta = {
  title: 'Controls/Button',
  component: Button,
  subcomponents: { IconButton, ButtonLink },
  tags: ['autodocs'],
  args: { children: 'Continue', onClick: fn() },
  // Stated here because the prop table's reader keeps one entry per prop name and file, and
  // IconButton, in the same file, defaults `variant` to ghost: Button's own default is solid.
  argTypes: {
    variant: {
      control: 'inline-radio',
      options: ['solid', 'soft', 'ghost', 'danger'],
      table: { defaultValue: { summary: "'solid'" } },
    },
    size: {
      control: 'inline-radio',
      options: ['small', 'medium'],
      table: { defaultValue: { summary: "'medium'" } },
    },
    disabled: { control: 'boolean', table: { defaultValue: { summary: 'false' } } },
    block: { control: 'boolean', table: { defaultValue: { summary: 'false' } } },
  },
  parameters: {
    docs: {
      description: {
        component:
          'The one button of the kit. Use `solid` for the main action of a view (one per view), `soft` or `ghost` for the others and `danger` for actions that delete. `IconButton` shows only an icon and needs a `label`; `ButtonLink` looks like a button but goes somewhere (a link).',
      },
    },
  },
} satisfies Meta<typeof Button>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every variant in both sizes, side by side. */
export const Variants: Story = {
  render: (args) => (
    <Stack gap={3}>
      {(['medium', 'small'] as const).map((size) => (
        <Flex key={size} gap={2} align="center">
          {(['solid', 'soft', 'ghost', 'danger'] as const).map((variant) => (
            <Button key={variant} {...args} variant={variant} size={size}>
              {variant} {size}
            </Button>
          ))}
        </Flex>
      ))}
    </Stack>
  ),
};
export const Solid: Story = {};
export const Soft: Story = { args: { variant: 'soft' } };
export const Ghost: Story = { args: { variant: 'ghost' } };
export const Danger: Story = { args: { variant: 'danger', children: 'Delete' } };
export const Small: Story = { args: { size: 'small' } };
export const Block: Story = { args: { block: true }, parameters: { layout: 'padded' } };

/** Disabled: dimmed, and out of the tab order. */
export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Continue' })).toBeDisabled();
  },
};

/** A disabled button ignores a click. */
export const ClickWhileDisabled: Story = {
  tags: ['!autodocs'],
  args: { disabled: true },
  play: async ({ canvasElement, args }) => {
    await userEvent.click(within(canvasElement).getByRole('button'), { pointerEventsCheck: 0 });
    await expect(args.onClick).not.toHaveBeenCalled();
  },
};

/** Tab reaches the button and Enter presses it. */
export const PressWithTheKeyboard: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement, args }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Continue' });
    await userEvent.keyboard('{Tab}');
    await expect(button).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onClick).toHaveBeenCalledOnce();
  },
};

export const IconButtons: StoryObj<typeof IconButton> = {
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
  },
};
