import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '@mates/api-client';
import { AUTH_MODE } from '@mates/state-machines';
import {
  Button,
  ButtonLink,
  Card,
  EmptyState,
  Flex,
  PasswordField,
  Stack,
  Text,
  TextField,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { errorText } from '../../i18n/error-text';

/**
 * `/reset-password`: a forgotten password. Without a token, it asks for the account's e-mail
 * address and mails a reset link; the link (`?token=`) leads back here to choose the new one.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <Page title={t('resetPassword.title')}>
      {token ? <ChoosePassword token={token} /> : <AskForLink />}
    </Page>
  );
}

function AskForLink() {
  const { t } = useTranslation();
  const { client } = useServices();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState('');
  const ask = useMutation({
    mutationFn: (address: string) => client.user.forgotPassword({ email: address }),
    onError: (error) => setProblem(errorText(error, t)),
  });
  if (ask.isSuccess)
    return (
      <Card as="section" aria-live="polite">
        <Stack gap={2}>
          <Text weight="medium">{t('resetPassword.sent')}</Text>
          <Text>{t('resetPassword.sentText', { email: ask.variables })}</Text>
          <div>
            <Button variant="soft" onClick={() => ask.reset()}>
              {t('resetPassword.again')}
            </Button>
          </div>
        </Stack>
      </Card>
    );
  return (
    <Card
      as="form"
      aria-label={t('resetPassword.title')}
      onSubmit={(event) => {
        event.preventDefault();
        const address = email.trim();
        if (!/^[^\s@]+@[^\s@]+$/.test(address)) return setProblem(t('resetPassword.invalidEmail'));
        setProblem('');
        ask.mutate(address);
      }}
    >
      <Stack gap={3}>
        <Text>{t('resetPassword.askText')}</Text>
        <TextField
          label={t('resetPassword.email')}
          // Checked here, said beside the field (not the browser's own bubble).
          inputMode="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={problem || undefined}
        />
        <div>
          <Button type="submit" aria-busy={ask.isPending} disabled={ask.isPending}>
            {t('resetPassword.send')}
          </Button>
        </div>
      </Stack>
    </Card>
  );
}

// A refusal the person cannot fix in the form (docs/product.md, codes): the link is used or
// too old, or too many tries were made. A weak password is bad input instead (4000).
const REFUSED = 5007;

function ChoosePassword({ token }: { token: string }) {
  const { t } = useTranslation();
  const { client, popup, store } = useServices();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: () => client.user.resetPassword({ token, password }),
    // Every session ended, this one too: the person signs in afresh with the new password.
    onSuccess: () => store.trigger.loggedOut(),
    onError: (error) => setProblem(errorText(error, t)),
  });
  if (save.isSuccess)
    return (
      <EmptyState
        title={t('resetPassword.done')}
        description={t('resetPassword.doneText')}
        action={
          <Button onClick={() => popup.open(AUTH_MODE.signIn)}>{t('resetPassword.signIn')}</Button>
        }
      />
    );
  return (
    <Card
      as="form"
      aria-label={t('resetPassword.title')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!password) return;
        setProblem('');
        save.mutate();
      }}
    >
      <Stack gap={3}>
        <Text>{t('resetPassword.chooseText')}</Text>
        <PasswordField
          label={t('resetPassword.password')}
          autoComplete="new-password"
          value={password}
          revealLabels={{ show: t('auth.showPassword'), hide: t('auth.hidePassword') }}
          onChange={(event) => setPassword(event.target.value)}
          error={problem || undefined}
        />
        <div>
          <Button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
            {t('resetPassword.save')}
          </Button>
        </div>
        {ApiError.isInstance(save.error) && save.error.code === REFUSED && <WaysOn />}
      </Stack>
    </Card>
  );
}

/** The ways on from a link that no longer works: a new link, or signing in as before. */
function WaysOn() {
  const { t } = useTranslation();
  const { popup } = useServices();
  return (
    <Flex gap={2} wrap>
      <ButtonLink variant="soft" href={href('/reset-password')}>
        {t('resetPassword.newLink')}
      </ButtonLink>
      <Button variant="soft" onClick={() => popup.open(AUTH_MODE.signIn)}>
        {t('resetPassword.signIn')}
      </Button>
    </Flex>
  );
}
