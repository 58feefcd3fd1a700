import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import {
  Avatar,
  Button,
  ButtonLink,
  Card,
  Flex,
  Heading,
  Select,
  Stack,
  Switch,
  Text,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { benefitsQuery } from '../../lib/queries';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { SignInGate } from '../../components/sign-in-gate';
import { LANGUAGES } from '../../i18n/i18n';
import { PasswordForm } from './password-form';
import { NicknameForm } from './nickname-form';
import { DataExportCard } from './data-export';
import { DeleteAccountCard } from './delete-account';
import type { ThemeChoice } from '@mates/state-machines';

const THEMES: ThemeChoice[] = ['system', 'light', 'dark'];
import { ConfirmDialog } from '../../components/confirm-dialog';
import { InlineLoadError } from '../../components/states';

/** `/profile`: the account, what it has left, its places, and its settings. */
export function ProfilePage() {
  const { t } = useTranslation();
  return (
    <Page title={t('profile.title')}>
      <SignInGate>
        <Profile />
      </SignInGate>
    </Page>
  );
}

function Profile() {
  const { t, i18n } = useTranslation();
  const { client, store } = useServices();
  const user = useSelector(store, (state) => state.context);
  // Fresh benefits on each visit; the store (and so the header) holds them.
  const benefits = useQuery(benefitsQuery(client, store));
  const nfsw = useMutation({
    mutationFn: (value: boolean) =>
      client.user.updateTags({ tags: user.userInfo.tags ?? [], nfsw: value }),
    onMutate: (value) => store.trigger.nfswChanged({ nfsw: value }),
    onError: (_error, value) => store.trigger.nfswChanged({ nfsw: !value }),
  });
  // Mature mates are turned on once the person has said they are an adult (asked once).
  const [askingAge, setAskingAge] = useState(false);
  const changeMature = (value: boolean) => {
    if (value && !user.adultConfirmed) return setAskingAge(true);
    nfsw.mutate(value);
  };
  const { userInfo, userBenefits } = user;
  const joined = userInfo.createdAt
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(
        new Date(userInfo.createdAt),
      )
    : '';
  return (
    <Stack gap={4}>
      <Card as="section" aria-labelledby="profile-account">
        <Heading as="h2" size={2} id="profile-account">
          {t('profile.account')}
        </Heading>
        <Flex gap={3} align="center">
          <Avatar src={userInfo.avatar ?? null} name={userInfo.nickname || userInfo.email || '?'} />
          <Stack gap={1}>
            <Text weight="bold">{userInfo.nickname}</Text>
            <Text tone="muted" size={2}>
              {userInfo.email}
            </Text>
            {joined && (
              <Text tone="muted" size={1}>
                {t('profile.joined', { date: joined })}
              </Text>
            )}
          </Stack>
        </Flex>
        <Text aria-live="polite">
          {t('format.label', { label: t('profile.benefits') })}{' '}
          {t('common.chats', { count: userBenefits.chats })} ·{' '}
          {t('common.goldCoins', { count: userBenefits.goldCoins })}
        </Text>
        {/* The balances shown are the ones the app held before (the header shows the same). */}
        {benefits.isError && (
          <InlineLoadError query={benefits} title={t('profile.benefitsStale')} />
        )}
        <Flex gap={2} wrap>
          <ButtonLink size="small" href={href('/mine')}>
            {t('profile.yourMates')}
          </ButtonLink>
          <ButtonLink size="small" variant="soft" href={href('/generate')}>
            {t('profile.createMate')}
          </ButtonLink>
          {userInfo.isAdmin && (
            <ButtonLink size="small" variant="soft" href={href('/moderation')}>
              {t('profile.moderation')}
            </ButtonLink>
          )}
        </Flex>
      </Card>
      <NicknameForm />
      <Card as="nav" aria-label={t('profile.areas')}>
        <Heading as="h2" size={2}>
          {t('profile.areas')}
        </Heading>
        <Flex gap={2} wrap>
          <ButtonLink variant="soft" size="small" href={href('/mine')}>
            {t('nav.personas')}
          </ButtonLink>
          <ButtonLink variant="soft" size="small" href={href('/favorite')}>
            {t('nav.favorites')}
          </ButtonLink>
          <ButtonLink variant="soft" size="small" href={href('/recent-chats')}>
            {t('nav.recentChats')}
          </ButtonLink>
          <ButtonLink variant="soft" size="small" href={href('/follow-list')}>
            {t('nav.following')}
          </ButtonLink>
        </Flex>
      </Card>
      <Card as="section" aria-labelledby="profile-settings">
        <Heading as="h2" size={2} id="profile-settings">
          {t('profile.settings')}
        </Heading>
        <Stack gap={1}>
          <Select
            label={t('profile.language')}
            value={userInfo.language}
            onValueChange={(language) => store.trigger.languageChanged({ language })}
            options={Object.entries(LANGUAGES).map(([value, label]) => ({ value, label }))}
          />
          <Text tone="muted" size={2}>
            {t('profile.languageText')}
          </Text>
        </Stack>
        <Stack gap={1}>
          <Select
            label={t('profile.theme')}
            value={user.theme}
            onValueChange={(theme) => store.trigger.themeChanged({ theme: theme as ThemeChoice })}
            options={THEMES.map((value) => ({ value, label: t(`profile.themes.${value}`) }))}
          />
          <Text tone="muted" size={2}>
            {t('profile.themeText')}
          </Text>
        </Stack>
        <Stack gap={1}>
          <Switch label={t('profile.nfsw')} checked={user.nfsw} onCheckedChange={changeMature} />
          <Text tone="muted" size={2}>
            {t('profile.nfswText')}
          </Text>
        </Stack>
      </Card>
      <ConfirmDialog
        open={askingAge}
        title={t('profile.ageTitle')}
        text={t('profile.ageText')}
        confirm={t('profile.ageConfirm')}
        onConfirm={() => {
          setAskingAge(false);
          store.trigger.adultConfirmed();
          nfsw.mutate(true);
        }}
        onCancel={() => setAskingAge(false)}
      />
      <PasswordForm />
      <DataExportCard />
      <DeleteAccountCard />
      <Flex justify="end">
        <Button variant="danger" onClick={() => store.trigger.logout()}>
          {t('profile.logout')}
        </Button>
      </Flex>
    </Stack>
  );
}
