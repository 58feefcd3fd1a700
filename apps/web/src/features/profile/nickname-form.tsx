import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { Button, Card, Heading, Text, TextField } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { errorText } from '../../i18n/error-text';

/** The longest nickname the server takes. */
const NICKNAME_MAX_LENGTH = 40;

/**
 * Changes the nickname: the name on the person's mates and reviews, and the one mates call
 * them by without a persona. A new account's is generated, never made from its e-mail address.
 */
export function NicknameForm() {
  const { t } = useTranslation();
  const { client, store, notices } = useServices();
  const current = useSelector(store, (state) => state.context.userInfo.nickname ?? '');
  const [nickname, setNickname] = useState(current);
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: () => client.user.updateNickname({ nickname }),
    onSuccess: (userInfo) => {
      store.trigger.userInfoChanged({ userInfo });
      // The server tidies spaces: the field shows what was saved.
      setNickname(userInfo.nickname);
      notices.trigger.added({ tone: 'positive', message: t('profile.nicknameSaved') });
    },
    // The server's refusal shows by the form; what was typed stays.
    onError: (error) => setProblem(errorText(error, t)),
  });
  return (
    <Card
      as="form"
      aria-labelledby="profile-nickname"
      onSubmit={(event) => {
        event.preventDefault();
        if (!nickname.trim()) return setProblem(t('profile.nicknameMissing'));
        setProblem('');
        save.mutate();
      }}
    >
      <Heading as="h2" size={2} id="profile-nickname">
        {t('profile.nickname')}
      </Heading>
      <Text tone="muted" size={2} id="profile-nickname-text">
        {t('profile.nicknameText')}
      </Text>
      <TextField
        label={t('profile.nicknameLabel')}
        autoComplete="nickname"
        maxLength={NICKNAME_MAX_LENGTH}
        value={nickname}
        aria-describedby="profile-nickname-text"
        onChange={(event) => setNickname(event.target.value)}
      />
      {problem && (
        <Text tone="danger" role="alert">
          {problem}
        </Text>
      )}
      <Button type="submit" aria-busy={save.isPending}>
        {t('profile.nicknameSave')}
      </Button>
    </Card>
  );
}
