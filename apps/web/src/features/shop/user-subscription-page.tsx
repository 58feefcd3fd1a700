import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedgerEntry, SpendingCap, Subscription, SubscriptionInfo } from '@mates/api-client';
import {
  Button,
  ButtonLink,
  Card,
  EmptyState,
  Flex,
  Heading,
  Link,
  Stack,
  Text,
  TextField,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { SignInGate } from '../../components/sign-in-gate';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Loading, LoadError } from '../../components/states';
import { usePaged } from '../../hooks/use-paged';
import { useAmounts, useDate, useSubscriptionInfo } from './shop-data';
import { shopKeys, spendingCapQuery } from './api/shop-queries';

/** The most a daily limit may be (the server's bound). */
const MAX_CAP = 1_000_000;

/**
 * `/user-subscription` (no header or footer): the person's plan (renewal, cancel at period
 * end, resume), balances, daily spending limits, and every movement of chats and gold coins.
 * Without the header, the balances it would show sit beside the way back.
 */
export function UserSubscriptionPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('plan.title')} back={{ to: '/subscription', label: t('plan.back') }} balances>
      <SignInGate>
        <Overview />
      </SignInGate>
    </Page>
  );
}

function Overview() {
  const { t } = useTranslation();
  const info = useSubscriptionInfo();
  if (info.isPending) return <Loading />;
  if (info.isError) return <LoadError query={info} title={t('shop.error')} />;
  return (
    <Stack gap={5}>
      <Plan info={info.data} />
      <Balance info={info.data} />
      <SpendingCaps />
      <History />
    </Stack>
  );
}

function Plan({ info }: { info: SubscriptionInfo }) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const queries = useQueryClient();
  const date = useDate();
  const headingId = useId();
  const [asking, setAsking] = useState(false);
  const current = info.current;
  const name =
    info.packages.find((entry) => entry.packageId === current?.packageId)?.name ??
    current?.packageId;
  const change = useMutation({
    mutationFn: (cancel: boolean) =>
      cancel ? client.subscription.cancel() : client.subscription.resume(),
    onSuccess: (plan: Subscription) => {
      setAsking(false);
      notices.trigger.added({
        tone: 'positive',
        message: plan.cancelAtPeriodEnd
          ? t('plan.cancelled', { date: date(plan.currentPeriodEnd) })
          : t('plan.resumed', { date: date(plan.currentPeriodEnd) }),
      });
    },
    onSettled: () => queries.invalidateQueries({ queryKey: shopKeys.subscription() }),
  });
  return (
    <Card as="section" aria-labelledby={headingId}>
      <Stack gap={3}>
        <Heading as="h2" size={2} id={headingId}>
          {t('plan.plan')}
        </Heading>
        {!current ? (
          <>
            <Text weight="medium">{t('plan.noPlan')}</Text>
            <Text tone="muted">{t('plan.noPlanText')}</Text>
            <Flex>
              <ButtonLink href={href('/subscription')}>{t('plan.seePackages')}</ButtonLink>
            </Flex>
          </>
        ) : (
          <>
            <Text weight="medium">{name}</Text>
            <Text tone="muted">
              {current.status !== 'active'
                ? t('plan.ended', { date: date(current.currentPeriodEnd) })
                : current.cancelAtPeriodEnd
                  ? t('plan.ends', { date: date(current.currentPeriodEnd) })
                  : t('plan.renews', { date: date(current.currentPeriodEnd) })}
            </Text>
            {current.status === 'active' && info.payments && (
              <Flex>
                {current.cancelAtPeriodEnd ? (
                  <Button
                    onClick={() => change.mutate(false)}
                    aria-busy={change.isPending}
                    disabled={change.isPending}
                  >
                    {t('plan.resume')}
                  </Button>
                ) : (
                  <Button variant="soft" onClick={() => setAsking(true)}>
                    {t('plan.cancel')}
                  </Button>
                )}
              </Flex>
            )}
            {current.status !== 'active' && (
              <Flex>
                <ButtonLink href={href('/subscription')}>{t('plan.seePackages')}</ButtonLink>
              </Flex>
            )}
          </>
        )}
      </Stack>
      <ConfirmDialog
        open={asking}
        title={t('plan.confirmTitle')}
        text={t('plan.confirmText', { date: current ? date(current.currentPeriodEnd) : '' })}
        confirm={t('plan.confirm')}
        busy={change.isPending}
        onConfirm={() => change.mutate(true)}
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}

function Balance({ info }: { info: SubscriptionInfo }) {
  const { t } = useTranslation();
  const amounts = useAmounts();
  const headingId = useId();
  return (
    <Card as="section" aria-labelledby={headingId}>
      <Stack gap={2}>
        <Heading as="h2" size={2} id={headingId}>
          {t('plan.balance')}
        </Heading>
        <Text>
          {t('shop.balanceText', {
            chats: amounts.chats(info.benefits.chats),
            goldCoins: amounts.goldCoins(info.benefits.goldCoins),
          })}
        </Text>
      </Stack>
    </Card>
  );
}

/** A limit as typed: empty is none; otherwise a whole number in bounds, or `undefined` (bad). */
function readCap(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value <= MAX_CAP ? value : undefined;
}

function SpendingCaps() {
  const { t } = useTranslation();
  const { client } = useServices();
  const caps = useQuery(spendingCapQuery(client));
  const headingId = useId();
  return (
    <Card as="section" aria-labelledby={headingId}>
      <Stack gap={3}>
        <Heading as="h2" size={2} id={headingId}>
          {t('plan.caps')}
        </Heading>
        <Text tone="muted" size={2}>
          {t('plan.capsText')}
        </Text>
        {caps.isPending ? (
          <Loading />
        ) : caps.isError ? (
          <LoadError query={caps} />
        ) : (
          <CapsForm caps={caps.data} />
        )}
      </Stack>
    </Card>
  );
}

function CapsForm({ caps }: { caps: SpendingCap }) {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const queries = useQueryClient();
  const amounts = useAmounts();
  const [chats, setChats] = useState(caps.dailyChats === null ? '' : String(caps.dailyChats));
  const [coins, setCoins] = useState(
    caps.dailyGoldCoins === null ? '' : String(caps.dailyGoldCoins),
  );
  const [tried, setTried] = useState(false);
  const save = useMutation({
    mutationFn: (next: { dailyChats: number | null; dailyGoldCoins: number | null }) =>
      client.user.setSpendingCap(next),
    onSuccess: (saved) => {
      queries.setQueryData(shopKeys.spendingCap(), saved);
      notices.trigger.added({ tone: 'positive', message: t('plan.capsSaved') });
    },
  });
  const dailyChats = readCap(chats);
  const dailyGoldCoins = readCap(coins);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (dailyChats === undefined || dailyGoldCoins === undefined) return;
    save.mutate({ dailyChats, dailyGoldCoins });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap={3}>
        <Flex gap={3} wrap>
          <TextField
            label={t('plan.capChats')}
            inputMode="numeric"
            value={chats}
            onChange={(event) => setChats(event.target.value)}
            error={tried && dailyChats === undefined ? t('plan.capInvalid') : undefined}
          />
          <TextField
            label={t('plan.capGoldCoins')}
            inputMode="numeric"
            value={coins}
            onChange={(event) => setCoins(event.target.value)}
            error={tried && dailyGoldCoins === undefined ? t('plan.capInvalid') : undefined}
          />
        </Flex>
        <Text tone="muted" size={2}>
          {t('plan.spentToday', {
            chats: amounts.chats(caps.spentToday.chats),
            goldCoins: amounts.goldCoins(caps.spentToday.goldCoins),
          })}
        </Text>
        <Flex>
          <Button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
            {t('plan.saveCaps')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}

function History() {
  const { t } = useTranslation();
  const { client } = useServices();
  const headingId = useId();
  const ledger = usePaged(
    shopKeys.ledger(),
    (page, signal) => client.user.ledger({ page, pageSize: 20 }, { signal }),
    { always: true },
  );
  return (
    <Stack as="section" gap={3} aria-labelledby={headingId}>
      <Heading as="h2" size={2} id={headingId}>
        {t('plan.history')}
      </Heading>
      {ledger.query.isPending ? (
        <Loading />
      ) : ledger.query.isError ? (
        <LoadError query={ledger.query} title={t('plan.error')} />
      ) : ledger.items.length === 0 ? (
        <EmptyState title={t('plan.historyEmpty')} description={t('plan.historyEmptyText')} />
      ) : (
        <>
          <Stack as="ul" gap={2} aria-labelledby={headingId} style={{ margin: 0, padding: 0 }}>
            {ledger.items.map((entry) => (
              <LedgerRow key={entry.entryId} entry={entry} />
            ))}
          </Stack>
          {ledger.more.has && (
            <Flex justify="center">
              <Button variant="soft" onClick={ledger.more.load} aria-busy={ledger.more.loading}>
                {t('common.loadMore')}
              </Button>
            </Flex>
          )}
        </>
      )}
    </Stack>
  );
}

/** "+500 gold coins", "−1 chat": each side that moved, signed. */
function useChange() {
  const amounts = useAmounts();
  return (entry: Pick<LedgerEntry, 'chats' | 'goldCoins'>) => {
    const parts: string[] = [];
    const signed = (count: number, say: (count: number) => string) =>
      `${count > 0 ? '+' : '−'}${say(Math.abs(count))}`;
    if (entry.chats !== 0) parts.push(signed(entry.chats, amounts.chats));
    if (entry.goldCoins !== 0) parts.push(signed(entry.goldCoins, amounts.goldCoins));
    return parts.length ? parts.join(' · ') : '0';
  };
}

function LedgerRow({ entry }: { entry: LedgerEntry }) {
  const { t, i18n } = useTranslation();
  const amounts = useAmounts();
  const change = useChange();
  const when = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(entry.createdAt));
  const reference = entry.reference;
  const room = reference?.type === 'room' ? reference.id : reference?.roomId;
  const link = room
    ? { to: href('/chat-detail', { roomId: room }), label: t('plan.openChat') }
    : reference?.type === 'mate'
      ? { to: href('/detail', { mateId: reference.id }), label: t('plan.openMate') }
      : reference?.type === 'package'
        ? {
            to: href('/single-package', { packageId: reference.id }),
            label: t('plan.openPackage'),
          }
        : null;
  return (
    <Card
      as="li"
      aria-label={`${t('format.label', { label: t(`plan.kinds.${entry.kind}`) })} ${change(entry)}`}
    >
      <Flex justify="between" gap={3} wrap>
        <Stack gap={1}>
          <Text weight="medium">
            {t(`plan.kinds.${entry.kind}`)} · {change(entry)}
          </Text>
          <Text tone="muted" size={2}>
            {entry.reason}
          </Text>
          {link && <Link href={link.to}>{link.label}</Link>}
        </Stack>
        <Stack gap={1} style={{ textAlign: 'end' }}>
          <Text size={2}>
            <time dateTime={entry.createdAt}>{when}</time>
          </Text>
          <Text tone="muted" size={2}>
            {t('format.label', { label: t('plan.after') })} {amounts.chats(entry.balance.chats)} ·{' '}
            {amounts.goldCoins(entry.balance.goldCoins)}
          </Text>
        </Stack>
      </Flex>
    </Card>
  );
}
