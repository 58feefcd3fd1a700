import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { PasswordField, TextArea, TextField } from './text-field';
import { Stack } from '../layout/primitives';

const meta = {
  title: 'Controls/TextField',
  component: TextField,
  subcomponents: { PasswordField, TextArea },
  tags: ['autodocs'],
  args: { label: 'Email address', type: 'email', autoComplete: 'email' },
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          'A labelled text input. Give `error` to mark it invalid: the message is shown under it and read with it. `PasswordField` masks the value (placeholder "******") and has a show/hide toggle; `TextArea` takes several lines.',
      },
    },
  },
} satisfies Meta<typeof TextField>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Empty, filled, invalid, password and multi-line fields together. */
export const Variants: Story = {
  render: () => (
    <Stack gap={4}>
      <TextField label="Empty" />
      <TextField label="Filled" defaultValue="ada@example.com" />
      <TextField label="Invalid" defaultValue="ada@" error="Please enter a whole e-mail address." />
      <PasswordField label="Password" defaultValue="hunter22" />
      <TextArea label="About you" placeholder="A few lines the mates will know." />
    </Stack>
  ),
};
export const Empty: Story = {};
export const Filled: Story = { args: { defaultValue: 'ada@example.com' } };
export const WithError: Story = {
  args: { defaultValue: 'ada@', error: 'Please enter a whole e-mail address.' },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Email address');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAccessibleDescription('Please enter a whole e-mail address.');
  },
};

/** A hint of the caller's own (`aria-describedby`) is read with the field, and so is an error. */
export const WithHintAndError: Story = {
  render: () => (
    <Stack gap={2}>
      <p id="email-hint">We only write to confirm the address.</p>
      <TextField
        label="Email address"
        defaultValue="ada@"
        aria-describedby="email-hint"
        error="Please enter a whole e-mail address."
      />
    </Stack>
  ),
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Email address');
    await expect(input).toHaveAccessibleDescription(
      'We only write to confirm the address. Please enter a whole e-mail address.',
    );
  },
};

export const TypeAnEmail: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Email address');
    await userEvent.type(input, 'ada@example.com');
    await expect(input).toHaveValue('ada@example.com');
  },
};

export const Password: StoryObj<typeof PasswordField> = {
  render: () => (
    <PasswordField label="Password" autoComplete="current-password" defaultValue="hunter22" />
  ),
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('Password');
    await expect(input).toHaveAttribute('type', 'password');
    await expect(input).toHaveAttribute('placeholder', '******');
  },
};

/** The toggle shows the password, and hides it again. */
export const RevealAndHideThePassword: StoryObj<typeof PasswordField> = {
  tags: ['!autodocs'],
  render: Password.render,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByLabelText('Password');
    await userEvent.click(canvas.getByRole('button', { name: 'Show password' }));
    await expect(input).toHaveAttribute('type', 'text');
    await userEvent.click(canvas.getByRole('button', { name: 'Hide password' }));
    await expect(input).toHaveAttribute('type', 'password');
  },
};

export const MultiLine: StoryObj<typeof TextArea> = {
  render: () => <TextArea label="About you" placeholder="A few lines the mates will know." />,
};

/** Shift+Enter starts a new line in a text area. */
export const TypeTwoLines: StoryObj<typeof TextArea> = {
  tags: ['!autodocs'],
  render: MultiLine.render,
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByLabelText('About you');
    await userEvent.type(input, 'First line{Shift>}{Enter}{/Shift}second line');
    await expect(input).toHaveValue('First line\nsecond line');
  },
};
