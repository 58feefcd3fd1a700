import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { NICKNAME_MAX_LENGTH } from '@mates/api-client';
import { Button, Card, Heading, Text, TextField } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { errorText } from '../../i18n/error-text';

/**
 * Changes the nickname: the name on the person's mates and reviews, and the one mates call
 * them by without a persona. A new account's is generated, never made from its e-mail address.
 */
export function NicknameForm() {
  const { t } = useTranslation();
  const { client, store, notices } = useServices();
  const { nickname: current = '', email = '' } = useSelector(
    store,
    (state) => state.context.userInfo,
  );
  // A name kept from before nicknames were private (the address up to the "@", cut at 40
  // characters, which the server has since replaced, and refuses) is not offered again.
  const localPart = email.split('@')[0]!;
  const fromAddress = Boolean(email) && [localPart, localPart.slice(0, 40)].includes(current);
  const [nickname, setNickname] = useState(fromAddress ? '' : current);
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: (wanted: string) => client.user.updateNickname({ nickname: wanted }),
    onSuccess: (userInfo, wanted) => {
      store.trigger.userInfoChanged({ userInfo });
      // The server tidies spaces: the field shows what was saved, unless typed in meanwhile.
      setNickname((shown) => (shown === wanted ? userInfo.nickname : shown));
      notices.trigger.added({ tone: 'positive', message: t('profile.nicknameSaved') });
    },
    // The server's refusal shows by the field; what was typed stays.
    onError: (error) => setProblem(errorText(error, t)),
  });
  return (
    <Card
      as="form"
      aria-labelledby="profile-nickname"
      onSubmit={(event) => {
        event.preventDefault();
        if (save.isPending) return;
        if (!nickname.trim()) return setProblem(t('profile.nicknameMissing'));
        setProblem('');
        save.mutate(nickname);
      }}
    >
      <Heading as="h2" size={2} id="profile-nickname">
        {t('profile.nickname')}
      </Heading>
      <Text tone="muted" size={2} id="profile-nickname-text">
        {t(fromAddress ? 'profile.nicknameFromAddress' : 'profile.nicknameText')}
      </Text>
      <TextField
        label={t('profile.nicknameLabel')}
        autoComplete="nickname"
        maxLength={NICKNAME_MAX_LENGTH}
        value={nickname}
        aria-describedby="profile-nickname-text"
        error={problem || undefined}
        onChange={(event) => setNickname(event.target.value)}
      />
      <Button type="submit" aria-busy={save.isPending}>
        {t('profile.nicknameSave')}
      </Button>
    </Card>
  );
}
