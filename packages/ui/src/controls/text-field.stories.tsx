import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { PasswordField, TextArea, TextField } from './text-field';

const meta = {
  title: 'Controls/TextField',
  component: TextField,
  args: { label: 'Email address', type: 'email', autoComplete: 'email' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof TextField>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Email address');
    await userEvent.type(input, 'ada@example.com');
    await expect(input).toHaveValue('ada@example.com');
  },
};
export const Filled: Story = { args: { defaultValue: 'ada@example.com' } };
export const WithError: Story = {
  args: { defaultValue: 'ada@', error: 'Please enter a whole e-mail address.' },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Email address');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAccessibleDescription('Please enter a whole e-mail address.');
  },
};

export const Password: StoryObj<typeof PasswordField> = {
  render: () => (
    <PasswordField label="Password" autoComplete="current-password" defaultValue="hunter22" />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByLabelText('Password');
    await expect(input).toHaveAttribute('type', 'password');
    await expect(input).toHaveAttribute('placeholder', '******');
    await userEvent.click(canvas.getByRole('button', { name: 'Show password' }));
    await expect(input).toHaveAttribute('type', 'text');
    await userEvent.click(canvas.getByRole('button', { name: 'Hide password' }));
    await expect(input).toHaveAttribute('type', 'password');
  },
};

export const MultiLine: StoryObj<typeof TextArea> = {
  render: () => <TextArea label="About you" placeholder="A few lines the mates will know." />,
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('About you');
    await userEvent.type(input, 'First line{Shift>}{Enter}{/Shift}second line');
    await expect(input).toHaveValue('First line\nsecond line');
  },
};
