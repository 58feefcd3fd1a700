import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { DeleteAccountPayload, DeletionPreview, PublicMatesChoice } from '@mates/api-client';
import { discordAuthorizeUrl } from '@mates/state-machines';
import { Button, Card, Dialog, Flex, Heading, PasswordField, Select, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { GoogleButton } from '../../lib/google-button';
import { serverKeys } from '../../lib/query-keys';
import { deletionProofIn, type DeletionProofState } from '../../lib/discord-state';
import { errorText } from '../../i18n/error-text';
import { InlineLoadError } from '../../components/states';
import { deletionPreviewQuery } from './api/your-data-queries';

/**
 * "Delete my account": says what goes, asks what becomes of the public mates and for the
 * password (or a fresh Google or Discord sign-in), then deletes the account; the person is signed
 * out and taken home. A Discord sign-in leaves the app: it comes back here with its code in the
 * location's state (see `useDiscordGuard`), and the dialog opens again with it as the proof.
 */
export function DeleteAccountCard() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const returned = deletionProofIn(location.state);
  const [open, setOpen] = useState(returned !== null);
  const close = (next: boolean) => {
    setOpen(next);
    // A spent or unused code is no proof any more: a reload must not bring it back.
    if (!next && returned)
      void navigate(
        { pathname: location.pathname, search: location.search },
        { replace: true, state: null },
      );
  };
  return (
    <Card as="section" aria-labelledby="profile-delete-account">
      <Heading as="h2" size={2} id="profile-delete-account">
        {t('yourData.deleteTitle')}
      </Heading>
      <Text tone="muted" size={2}>
        {t('yourData.deleteText')}
      </Text>
      <Flex>
        <Button variant="danger" onClick={() => close(true)}>
          {t('yourData.delete')}
        </Button>
      </Flex>
      <Dialog
        open={open}
        onOpenChange={close}
        title={t('yourData.dialogTitle')}
        closeLabel={t('auth.close')}
      >
        {open && <DeleteAccountForm returned={returned} onCancel={() => close(false)} />}
      </Dialog>
    </Card>
  );
}

type Returned = DeletionProofState['deletionProof'] | null;

function DeleteAccountForm({ returned, onCancel }: { returned: Returned; onCancel: () => void }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const preview = useQuery(deletionPreviewQuery(client));
  if (preview.isPending) return <Text aria-live="polite">{t('yourData.loadingPreview')}</Text>;
  if (preview.isError)
    return <InlineLoadError query={preview} title={t('yourData.previewFailed')} />;
  return <Confirm preview={preview.data} returned={returned} onCancel={onCancel} />;
}

function Confirm({
  preview,
  returned,
  onCancel,
}: {
  preview: DeletionPreview;
  returned: Returned;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { client, store, notices, platform, discordStates } = useServices();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [publicMates, setPublicMates] = useState<PublicMatesChoice>(
    returned?.publicMates ?? 'keep',
  );
  const [problem, setProblem] = useState('');
  const usesPassword = preview.proofs.includes('password');
  const usesGoogle = !usesPassword && preview.proofs.includes('google');
  const usesDiscord = !usesPassword && preview.proofs.includes('discord');
  // The code Discord sent back, until it is spent (a refused one cannot be sent again).
  const [discordCode, setDiscordCode] = useState(usesDiscord ? (returned?.discordCode ?? '') : '');
  const config = useQuery({
    queryKey: serverKeys.publicConfig(),
    queryFn: ({ signal }) => client.extra.publicConfig({ signal }),
    enabled: usesGoogle || usesDiscord,
    staleTime: Infinity,
  });
  const googleClientId = config.data?.googleClientId;
  const discord = config.data?.discord;
  const remove = useMutation({
    mutationFn: (proof: Omit<DeleteAccountPayload, 'publicMates'>) =>
      client.user.deleteAccount({ ...proof, publicMates }),
    onSuccess: () => {
      store.trigger.loggedOut();
      notices.trigger.added({ tone: 'positive', message: t('yourData.deleted') });
      void navigate('/');
    },
    onError: (error) => {
      setDiscordCode('');
      setProblem(errorText(error, t));
    },
  });
  const items = [
    t('yourData.chats', { count: preview.chats }),
    t('yourData.personas', { count: preview.personas }),
    t('yourData.pictures', { count: preview.pictures }),
    t('yourData.voiceClips', { count: preview.voiceClips }),
    t('yourData.privateMates', { count: preview.privateMates }),
    t('yourData.sessions'),
  ];
  return (
    <Stack
      as="form"
      gap={3}
      aria-label={t('yourData.dialogTitle')}
      onSubmit={(event) => {
        event.preventDefault();
        if (discordCode) {
          setProblem('');
          return remove.mutate({ discordCode });
        }
        if (!usesPassword) return;
        if (!password) return setProblem(t('yourData.passwordMissing'));
        setProblem('');
        remove.mutate({ password });
      }}
    >
      <Text>{t('yourData.whatGoes')}</Text>
      <ul>
        {items.map((item) => (
          <li key={item}>
            <Text as="span">{item}</Text>
          </li>
        ))}
      </ul>
      {preview.paidPlan && <Text>{t('yourData.planCancelled')}</Text>}
      <Text tone="muted" size={2}>
        {t('yourData.ledgerKept')}
      </Text>
      {preview.publicMates > 0 && (
        <Select
          label={t('yourData.publicMatesLabel', { count: preview.publicMates })}
          value={publicMates}
          onValueChange={(value) => setPublicMates(value as PublicMatesChoice)}
          options={[
            { value: 'keep', label: t('yourData.keepMates') },
            { value: 'delete', label: t('yourData.deleteMates') },
          ]}
        />
      )}
      {usesPassword && (
        <PasswordField
          label={t('yourData.password')}
          autoComplete="current-password"
          value={password}
          revealLabels={{ show: t('auth.showPassword'), hide: t('auth.hidePassword') }}
          onChange={(event) => setPassword(event.target.value)}
        />
      )}
      {usesGoogle && (
        <Stack gap={1}>
          <Text>{t('yourData.googleProof')}</Text>
          {googleClientId && (
            <GoogleButton
              clientId={googleClientId}
              language={i18n.language}
              onCredential={(googleCredential) => remove.mutate({ googleCredential })}
              onError={() => setProblem(t('auth.googleUnavailable'))}
              unavailableText={t('auth.googleUnavailable')}
            />
          )}
        </Stack>
      )}
      {usesDiscord && discordCode && <Text>{t('yourData.discordConfirmed')}</Text>}
      {usesDiscord && !discordCode && (
        <Stack gap={1} align="start">
          <Text>{t('yourData.discordProof')}</Text>
          {discord && (
            <Button
              variant="soft"
              onClick={() =>
                platform.redirect(
                  discordAuthorizeUrl(discord, discordStates.issueConfirmation(publicMates)),
                )
              }
            >
              {t('yourData.confirmWithDiscord')}
            </Button>
          )}
          {config.isSuccess && !discord && (
            <Text tone="danger">{t('yourData.discordUnavailable')}</Text>
          )}
        </Stack>
      )}
      {problem && (
        <Text tone="danger" role="alert">
          {problem}
        </Text>
      )}
      <Flex gap={2} justify="end">
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        {(usesPassword || discordCode) && (
          <Button type="submit" variant="danger" aria-busy={remove.isPending}>
            {t('yourData.confirm')}
          </Button>
        )}
      </Flex>
    </Stack>
  );
}
