import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { Button, Card, Heading, PasswordField, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { errorText } from '../../i18n/error-text';

/**
 * The password card: changing it (the current one, then the new one), or, for an account made
 * with Google or Discord that has none, mailing the link that sets one.
 */
export function PasswordForm() {
  const { store } = useServices();
  // Unknown for a sign-in kept from before the server said (`undefined`): as with a password.
  const { hasPassword, email } = useSelector(store, (state) => state.context.userInfo);
  return hasPassword === false ? <SetPasswordByMail email={email ?? ''} /> : <ChangePassword />;
}

/**
 * An account without a password sets one as a forgotten one is set: a link mailed to its
 * address, which proves the person (a session alone could be someone else's).
 */
function SetPasswordByMail({ email }: { email: string }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const mail = useMutation({ mutationFn: () => client.user.forgotPassword({ email }) });
  return (
    <Card
      as="form"
      aria-labelledby="profile-password"
      onSubmit={(event) => {
        event.preventDefault();
        if (!mail.isPending) mail.mutate();
      }}
    >
      <Heading as="h2" size={2} id="profile-password">
        {t('profile.setPassword')}
      </Heading>
      <Text>{t('profile.noPassword', { email })}</Text>
      <Text role="status">{mail.isSuccess ? t('profile.setPasswordSent', { email }) : ''}</Text>
      {mail.isError && (
        <Text tone="danger" role="alert">
          {errorText(mail.error, t)}
        </Text>
      )}
      {/* Not disabled while it sends: the focus stays on the button pressed. */}
      <Button type="submit" aria-busy={mail.isPending}>
        {t('profile.setPasswordSend')}
      </Button>
    </Card>
  );
}

/** Changes the password: the current one, then the new one. */
function ChangePassword() {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [problem, setProblem] = useState('');
  const change = useMutation({
    mutationFn: () => client.user.changePassword({ oldPassword, newPassword }),
    onSuccess: () => {
      setOld('');
      setNew('');
      notices.trigger.added({ tone: 'positive', message: t('profile.passwordSaved') });
    },
    // The server's refusal shows by the form; what was typed stays.
    onError: (error) => setProblem(errorText(error, t)),
  });
  const reveal = { show: t('auth.showPassword'), hide: t('auth.hidePassword') };
  return (
    <Card
      as="form"
      aria-labelledby="profile-password"
      onSubmit={(event) => {
        event.preventDefault();
        if (!oldPassword || !newPassword) return setProblem(t('profile.passwordMissing'));
        setProblem('');
        change.mutate();
      }}
    >
      <Heading as="h2" size={2} id="profile-password">
        {t('profile.password')}
      </Heading>
      <PasswordField
        label={t('profile.oldPassword')}
        autoComplete="current-password"
        value={oldPassword}
        revealLabels={reveal}
        onChange={(event) => setOld(event.target.value)}
      />
      <PasswordField
        label={t('profile.newPassword')}
        autoComplete="new-password"
        value={newPassword}
        revealLabels={reveal}
        onChange={(event) => setNew(event.target.value)}
      />
      {problem && (
        <Text tone="danger" role="alert">
          {problem}
        </Text>
      )}
      <Button type="submit" aria-busy={change.isPending}>
        {t('profile.password')}
      </Button>
    </Card>
  );
}
