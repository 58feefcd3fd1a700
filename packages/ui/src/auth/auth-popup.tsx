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

// Discord's mark (from Simple Icons, CC0), as Discord's brand guidelines ask of sign-in buttons.
const DISCORD_PATH =
  'M20.317 4.3698a19.7913 19.7913 0 00-4.8851-1.5152.0741.0741 0 00-.0785.0371c-.211.3753-.4447.8648-.6083 1.2495-1.8447-.2762-3.68-.2762-5.4868 0-.1636-.3933-.4058-.8742-.6177-1.2495a.077.077 0 00-.0785-.037 19.7363 19.7363 0 00-4.8852 1.515.0699.0699 0 00-.0321.0277C.5334 9.0458-.319 13.5799.0992 18.0578a.0824.0824 0 00.0312.0561c2.0528 1.5076 4.0413 2.4228 5.9929 3.0294a.0777.0777 0 00.0842-.0276c.4616-.6304.8731-1.2952 1.226-1.9942a.076.076 0 00-.0416-.1057c-.6528-.2476-1.2743-.5495-1.8722-.8923a.077.077 0 01-.0076-.1277c.1258-.0943.2517-.1923.3718-.2914a.0743.0743 0 01.0776-.0105c3.9278 1.7933 8.18 1.7933 12.0614 0a.0739.0739 0 01.0785.0095c.1202.099.246.1981.3728.2924a.077.077 0 01-.0066.1276 12.2986 12.2986 0 01-1.873.8914.0766.0766 0 00-.0407.1067c.3604.698.7719 1.3628 1.225 1.9932a.076.076 0 00.0842.0286c1.961-.6067 3.9495-1.5219 6.0023-3.0294a.077.077 0 00.0313-.0552c.5004-5.177-.8382-9.6739-3.5485-13.6604a.061.061 0 00-.0312-.0286zM8.02 15.3312c-1.1825 0-2.1569-1.0857-2.1569-2.419 0-1.3332.9555-2.4189 2.157-2.4189 1.2108 0 2.1757 1.0952 2.1568 2.419 0 1.3332-.9555 2.4189-2.1569 2.4189zm7.9748 0c-1.1825 0-2.1569-1.0857-2.1569-2.419 0-1.3332.9554-2.4189 2.1569-2.4189 1.2108 0 2.1757 1.0952 2.1568 2.419 0 1.3332-.946 2.4189-2.1568 2.4189Z';

function DiscordMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <path d={DISCORD_PATH} />
    </svg>
  );
}

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
  /** Why the server refused the address, shown under its field (without the field's name). */
  emailError?: string;
  /** Why the server refused the password (too easy to guess…), shown under its field. */
  passwordError?: string;
  /** The texts, for another language; default English. */
  labels?: AuthPopupLabels;
}

/** The sign-up / sign-in popup (docs/product.md), as it looks; the flow lives in authPopupMachine. */
export function AuthPopup(props: AuthPopupProps) {
  const { open, mode, productName = 'Mates', email, password, loading = false } = props;
  const labels = props.labels ?? ENGLISH;
  const signUp = mode === 1;
  const filled = email !== '' && password !== '';
  const providers = Boolean(props.onDiscord || props.googleButton || props.onGoogle);
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
          {/* "or" only stands between sign-in providers and the form: none, no divider. */}
          {providers && (
            <>
              <Stack gap={2}>
                {props.onDiscord && (
                  <Button variant="soft" block onClick={props.onDiscord}>
                    <DiscordMark />
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
            </>
          )}
          <form onSubmit={submit} noValidate>
            <Stack gap={3}>
              <TextField
                label={labels.email}
                type="email"
                autoComplete="email"
                value={email}
                error={props.emailError}
                onChange={(event) => props.onEmailChange(event.target.value)}
              />
              <PasswordField
                label={labels.password}
                revealLabels={{ show: labels.showPassword, hide: labels.hidePassword }}
                autoComplete={signUp ? 'new-password' : 'current-password'}
                value={password}
                error={props.passwordError}
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
