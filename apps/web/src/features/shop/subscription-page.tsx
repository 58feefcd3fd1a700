import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { FeatureCosts, SubscriptionInfo } from '@mates/api-client';
import { Card, EmptyState, Grid, Heading, Link, PackageCard, Stack, Text } from '@mates/ui';
import { href, routeTo } from '../../lib/paths';
import { Page } from '../../components/page';
import { useSignedIn } from '../../components/sign-in-gate';
import { Loading, LoadError } from '../../components/states';
import { countOf, useAmounts, useSubscriptionInfo } from './shop-data';

/**
 * `/subscription`: every package on sale with its price, what each feature costs, and for a
 * signed-in person their balance and the way to their plan and history.
 */
export function SubscriptionPage() {
  const { t } = useTranslation();
  const info = useSubscriptionInfo();
  return (
    <Page title={t('shop.title')}>
      <Text>{t('shop.intro')}</Text>
      {info.isPending ? (
        <Loading />
      ) : info.isError ? (
        <LoadError query={info} title={t('shop.error')} />
      ) : (
        <Shop info={info.data} />
      )}
    </Page>
  );
}

function Shop({ info }: { info: SubscriptionInfo }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const amounts = useAmounts();
  const packagesId = useId();
  return (
    <Stack gap={5}>
      {signedIn && (
        <Card as="section" aria-label={t('shop.balance')}>
          <Stack gap={2}>
            <Heading as="h2" size={2}>
              {t('shop.balance')}
            </Heading>
            <Text>
              {t('shop.balanceText', {
                chats: amounts.chats(info.benefits.chats),
                goldCoins: amounts.goldCoins(info.benefits.goldCoins),
              })}
            </Text>
            <Link href={href('/user-subscription')}>{t('shop.history')}</Link>
          </Stack>
        </Card>
      )}
      <Stack gap={3} as="section" aria-labelledby={packagesId}>
        <Heading as="h2" size={2} id={packagesId}>
          {t('shop.packages')}
        </Heading>
        {!info.payments && info.packages.length > 0 && (
          <Text tone="muted">{t('shop.notSetUp')}</Text>
        )}
        {info.packages.length === 0 ? (
          <EmptyState title={t('shop.none')} description={t('shop.noneText')} />
        ) : (
          <Grid columns={3}>
            {info.packages.map((pkg) => (
              <PackageCard
                key={pkg.packageId}
                pkg={pkg}
                locale={i18n.language}
                current={
                  info.current?.status === 'active' && info.current.packageId === pkg.packageId
                }
                onChoose={(packageId) => navigate(routeTo('/single-package', { packageId }))}
                labels={{
                  perMonth: t('shop.perMonth'),
                  perYear: t('shop.perYear'),
                  once: t('shop.once'),
                  choose: t('shop.choose'),
                  current: t('shop.current'),
                  chats: (count) => amounts.chats(countOf(count)),
                  goldCoins: (count) => amounts.goldCoins(countOf(count)),
                }}
              />
            ))}
          </Grid>
        )}
      </Stack>
      <Costs costs={info.costs} />
    </Stack>
  );
}

/** What each feature costs, as the server is configured: the product states every price. */
function Costs({ costs }: { costs: FeatureCosts }) {
  const { t } = useTranslation();
  const amounts = useAmounts();
  const id = useId();
  const rows: [string, string][] = [
    [t('shop.costChat'), amounts.chats(costs.chatMessage)],
    [t('group.costRow'), t('group.costEach', { cost: amounts.chats(costs.chatMessage) })],
    [t('call.costRow'), t('call.costEach', { cost: amounts.chats(costs.chatMessage) })],
    [
      t('shop.costPicture'),
      costs.picture === null ? t('shop.notAvailable') : amounts.goldCoins(costs.picture),
    ],
    [
      t('shop.costVoice'),
      costs.voiceClip === null ? t('shop.notAvailable') : amounts.goldCoins(costs.voiceClip),
    ],
    [t('shop.costCharacter'), amounts.chats(costs.generatedCharacter)],
  ];
  return (
    <Stack gap={3} as="section" aria-labelledby={id}>
      <Heading as="h2" size={2} id={id}>
        {t('shop.costs')}
      </Heading>
      <Stack as="dl" gap={2}>
        {rows.map(([what, cost]) => (
          <Stack key={what} gap={0}>
            <Text as="dt" weight="medium">
              {what}
            </Text>
            <Text as="dd" tone="muted" style={{ margin: 0 }}>
              {cost}
            </Text>
          </Stack>
        ))}
      </Stack>
      <Text tone="muted">{t('shop.costMemory')}</Text>
    </Stack>
  );
}
