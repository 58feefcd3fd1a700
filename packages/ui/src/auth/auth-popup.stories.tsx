import { useState, type ComponentType } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { AuthPopup, type AuthPopupProps } from './auth-popup';

function Controlled(props: Partial<AuthPopupProps>) {
  const [mode, setMode] = useState<1 | 2>(props.mode ?? 1);
  const [email, setEmail] = useState(props.email ?? '');
  const [password, setPassword] = useState(props.password ?? '');
  return (
    <AuthPopup
      open
      mode={mode}
      email={email}
      password={password}
      onEmailChange={setEmail}
      onPasswordChange={setPassword}
      onSwitchMode={() => setMode((m) => (m === 1 ? 2 : 1))}
      onSubmit={props.onSubmit ?? (() => {})}
      onClose={props.onClose ?? (() => {})}
      onDiscord={props.onDiscord}
      onGoogle={props.onGoogle}
      onForgotPassword={props.onForgotPassword}
      loading={props.loading}
      emailError={props.emailError}
      passwordError={props.passwordError}
    />
  );
}

const meta = {
  title: 'Auth/AuthPopup',
  // Stories set a few props; Controlled supplies the rest (state and handlers).
  component: AuthPopup as ComponentType<Partial<AuthPopupProps>>,
  tags: ['autodocs'],
  render: (args) => <Controlled {...args} />,
  args: { onSubmit: fn(), onClose: fn(), onDiscord: fn(), onGoogle: fn() },
  parameters: {
    docs: {
      story: { inline: false, iframeHeight: 640 },
      description: {
        component:
          'The sign-up (mode 1) and sign-in (mode 2) window: Discord and Google buttons, "or", e-mail and password, Continue, and a line that switches modes. Continue does nothing until both fields are filled; `loading` covers it with "Please wait...". Its texts come in `labels`, for other languages.',
      },
    },
  },
} satisfies Meta<Partial<AuthPopupProps>>;
export default meta;
type Story = StoryObj<typeof meta>;

const screen = (canvasElement: HTMLElement) => within(canvasElement.ownerDocument.body);

/** Mode 1: "Create your account". */
export const SignUp: Story = {
  args: { mode: 1 },
  play: async ({ canvasElement }) => {
    const body = screen(canvasElement);
    const dialog = await body.findByRole('dialog', { name: 'Create your account' });
    await expect(dialog).toHaveAccessibleDescription(
      'Welcome! Please fill in the details to get started.',
    );
    await waitFor(() => expect(body.getByRole('button', { name: 'Discord' })).toBeVisible());
    await expect(body.getByRole('button', { name: 'Google' })).toBeVisible();
    await expect(body.getByRole('separator', { name: 'or' })).toBeVisible();
    await expect(dialog).toHaveTextContent('Already have an account? Sign in');
  },
};

/** Mode 2 carries the product's name. */
export const SignIn: Story = {
  args: { mode: 2 },
  play: async ({ canvasElement }) => {
    const dialog = await screen(canvasElement).findByRole('dialog', { name: 'Sign in to Mates' });
    await expect(dialog).toHaveAccessibleDescription('Welcome back! Please sign in to continue');
    await expect(dialog).toHaveTextContent("Don't have an account? Sign up");
  },
};

/** Sign-in mode offers a way to a forgotten password; sign-up mode does not. */
export const ForgotPassword: Story = {
  args: { mode: 2, onForgotPassword: fn() },
  play: async ({ canvasElement, args }) => {
    const dialog = within(
      await screen(canvasElement).findByRole('dialog', { name: 'Sign in to Mates' }),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Forgot your password?' }));
    await expect(args.onForgotPassword).toHaveBeenCalledOnce();
  },
};

/** Continue was pressed: "Please wait..." covers the form. */
export const Loading: Story = {
  args: { mode: 2, email: 'ada@example.com', password: 'hunter22', loading: true },
  play: async ({ canvasElement }) => {
    await expect(await screen(canvasElement).findByRole('status')).toHaveTextContent(
      'Please wait...',
    );
  },
};

/** While it waits, Enter sends nothing more. */
export const PressEnterWhileWaiting: Story = {
  tags: ['!autodocs'],
  args: Loading.args,
  play: async ({ canvasElement, args }) => {
    const body = screen(canvasElement);
    await expect(await body.findByRole('status')).toHaveTextContent('Please wait...');
    await userEvent.keyboard('{Enter}');
    await expect(args.onSubmit).not.toHaveBeenCalled();
  },
};

export const WithoutProviders: Story = {
  args: { mode: 2, onDiscord: undefined, onGoogle: undefined },
  play: async ({ canvasElement }) => {
    const body = screen(canvasElement);
    await body.findByRole('dialog');
    await expect(body.queryByRole('button', { name: 'Discord' })).toBeNull();
    await expect(body.queryByRole('button', { name: 'Google' })).toBeNull();
    // No "or" left between nothing and the form.
    await expect(body.queryByRole('separator', { name: 'or' })).toBeNull();
  },
};

/** A refused password (too easy to guess): the reason under the field, the field marked. */
export const PasswordRefused: Story = {
  args: {
    mode: 1,
    email: 'ada@example.com',
    password: 'password123',
    passwordError:
      'is too easy to guess (a common password, a pattern or your address); a few uncommon words make a strong one',
  },
  play: async ({ canvasElement, args }) => {
    const body = screen(canvasElement);
    const field = await body.findByLabelText('Password');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(args.passwordError!);
    await expect(body.getByLabelText('Email address')).not.toHaveAttribute('aria-invalid');
  },
};

/** Continue with only the e-mail does nothing; with the password too, Enter submits. */
export const FillInAndContinue: Story = {
  tags: ['!autodocs'],
  args: { mode: 1 },
  play: async ({ canvasElement, args }) => {
    const body = screen(canvasElement);
    await body.findByRole('dialog', { name: 'Create your account' });
    const continueButton = body.getByRole('button', { name: 'Continue' });
    await userEvent.type(body.getByLabelText('Email address'), 'ada@example.com');
    await userEvent.click(continueButton);
    await expect(args.onSubmit).not.toHaveBeenCalled();
    await expect(continueButton).toHaveAttribute('aria-disabled', 'true');
    await userEvent.type(body.getByLabelText('Password'), 'hunter22{Enter}');
    await expect(args.onSubmit).toHaveBeenCalledOnce();
  },
};

/** From sign-in, "Sign up" switches to "Create your account". */
export const SwitchToSignUp: Story = {
  tags: ['!autodocs'],
  args: { mode: 2 },
  play: async ({ canvasElement }) => {
    const body = screen(canvasElement);
    await body.findByRole('dialog', { name: 'Sign in to Mates' });
    await userEvent.click(body.getByRole('button', { name: 'Sign up' }));
    await waitFor(() =>
      expect(body.getByRole('dialog', { name: 'Create your account' })).toBeVisible(),
    );
  },
};

/** The close button and Escape both ask to close (the app then returns to "/"). */
export const CloseWithButtonOrEscape: Story = {
  tags: ['!autodocs'],
  args: { mode: 2 },
  play: async ({ canvasElement, args }) => {
    const body = screen(canvasElement);
    await userEvent.click(await body.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(args.onClose).toHaveBeenCalledOnce());
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(args.onClose).toHaveBeenCalledTimes(2));
  },
};
