import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Heading, PasswordField, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { errorText } from '../../i18n/error-text';

/** Changes the password: the current one, then the new one. */
export function PasswordForm() {
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
