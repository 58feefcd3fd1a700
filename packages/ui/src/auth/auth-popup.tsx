'use client';

import type { FormEvent, ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { Dialog } from '../feedback/dialog';
import { LoadingOverlay } from '../feedback/loading-overlay';
import { Button } from '../controls/button';
import { PasswordField, TextField } from '../controls/text-field';
import { Divider } from '../layout/divider';
import { Stack } from '../layout/primitives';

const Body = /* @__PURE__ */ styled('div', { position: 'relative', marginTop: '$5' });
const FooterLine = /* @__PURE__ */ styled('p', {
  margin: 0,
  marginTop: '$4',
  textAlign: 'center',
  color: '$textMuted',
  fontSize: '$2',
});
const Switch = /* @__PURE__ */ styled('button', {
  all: 'unset',
  color: '$accent',
  fontWeight: '$medium',
  cursor: 'pointer',
  borderRadius: '$1',
  '&:hover': { textDecoration: 'underline' },
  '&:focus-visible': { boxShadow: '$focus' },
});

/** Every text of {@link AuthPopup}; the defaults are the binding texts of docs/product.md. */
export interface AuthPopupLabels {
  signUpTitle: string;
  signUpText: string;
  signInTitle: (productName: string) => string;
  signInText: string;
  or: string;
  email: string;
  password: string;
  continue: string;
  haveAccount: string;
  signIn: string;
  noAccount: string;
  signUp: string;
  close: string;
  wait: string;
  showPassword: string;
  hidePassword: string;
  /** The sign-in mode's way to a forgotten password; default "Forgot your password?". */
  forgotPassword?: string;
}

const ENGLISH: AuthPopupLabels = {
  signUpTitle: 'Create your account',
  signUpText: 'Welcome! Please fill in the details to get started.',
  signInTitle: (productName) => `Sign in to ${productName}`,
  signInText: 'Welcome back! Please sign in to continue',
  or: 'or',
  email: 'Email address',
  password: 'Password',
  continue: 'Continue',
  haveAccount: 'Already have an account?',
  signIn: 'Sign in',
  noAccount: "Don't have an account?",
  signUp: 'Sign up',
  close: 'Close',
  wait: 'Please wait...',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
};

/** Props of {@link AuthPopup}. */
export interface AuthPopupProps {
  open: boolean;
  /** 1: sign up ("Create your account"); 2: sign in. */
  mode: 1 | 2;
  /** The product's name, carried by the sign-in heading; default "Mates". */
  productName?: string;
  email: string;
  password: string;
  /** Shows the "Please wait..." overlay. */
  loading?: boolean;
  onEmailChange: (value: string) => void;
  onPasswordChange: (value: string) => void;
  /** Continue; only called when both fields are filled (docs/product.md, the popup). */
  onSubmit: () => void;
  onSwitchMode: () => void;
  /** The close button (and Escape): the app returns to "/". */
  onClose: () => void;
  /** "Forgot your password?", in sign-in mode; hidden when absent. */
  onForgotPassword?: () => void;
  /** The Discord button; hidden when absent. */
  onDiscord?: () => void;
  /** The Google button; hidden when absent (unless `googleButton` is given). */
  onGoogle?: () => void;
  /** Google's own rendered button (Google Identity Services), used instead of ours. */
  googleButton?: ReactNode;
  /** The texts, for another language; default English. */
  labels?: AuthPopupLabels;
}

/** The sign-up / sign-in popup (docs/product.md), as it looks; the flow lives in authPopupMachine. */
export function AuthPopup(props: AuthPopupProps) {
  const { open, mode, productName = 'Mates', email, password, loading = false } = props;
  const labels = props.labels ?? ENGLISH;
  const signUp = mode === 1;
  const filled = email !== '' && password !== '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (filled && !loading) props.onSubmit();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && props.onClose()}
      title={signUp ? labels.signUpTitle : labels.signInTitle(productName)}
      description={signUp ? labels.signUpText : labels.signInText}
      closeLabel={labels.close}
    >
      <Body aria-busy={loading}>
        <Stack gap={4}>
          <Stack gap={2}>
            {props.onDiscord && (
              <Button variant="soft" block onClick={props.onDiscord}>
                Discord
              </Button>
            )}
            {props.googleButton ??
              (props.onGoogle && (
                <Button variant="soft" block onClick={props.onGoogle}>
                  Google
                </Button>
              ))}
          </Stack>
          <Divider label={labels.or} />
          <form onSubmit={submit} noValidate>
            <Stack gap={3}>
              <TextField
                label={labels.email}
                type="email"
                autoComplete="email"
                value={email}
                onChange={(event) => props.onEmailChange(event.target.value)}
              />
              <PasswordField
                label={labels.password}
                revealLabels={{ show: labels.showPassword, hide: labels.hidePassword }}
                autoComplete={signUp ? 'new-password' : 'current-password'}
                value={password}
                onChange={(event) => props.onPasswordChange(event.target.value)}
              />
              {!signUp && props.onForgotPassword && (
                <Switch type="button" onClick={props.onForgotPassword}>
                  {labels.forgotPassword ?? 'Forgot your password?'}
                </Switch>
              )}
              <Button type="submit" block aria-disabled={!filled || loading}>
                {labels.continue}
              </Button>
            </Stack>
          </form>
        </Stack>
        {loading && <LoadingOverlay text={labels.wait} />}
      </Body>
      <FooterLine>
        {signUp ? labels.haveAccount : labels.noAccount}{' '}
        <Switch type="button" onClick={props.onSwitchMode}>
          {signUp ? labels.signIn : labels.signUp}
        </Switch>
      </FooterLine>
    </Dialog>
  );
}
