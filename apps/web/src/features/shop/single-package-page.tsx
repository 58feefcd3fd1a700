import { useEffect, useId, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import type { Package, SubscriptionInfo } from '@mates/api-client';
import { checkoutMachine } from '@mates/state-machines';
import {
  Button,
  ButtonLink,
  Card,
  EmptyState,
  Flex,
  formatPrice,
  Heading,
  Spinner,
  Stack,
  Text,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { SignInGate, useSignedIn, useSignedInAction } from '../../components/sign-in-gate';
import { Loading, LoadError } from '../../components/states';
import { useAmounts, useSubscriptionInfo } from './shop-data';
import { shopKeys } from './api/shop-queries';
import { errorText } from '../../i18n/error-text';

/**
 * `/single-package?packageId=`: one package in detail and Buy, which goes to the payment
 * provider's page. The provider sends the buyer back with `checkoutId` (and `cancelled=1`
 * when they went back): the page then waits for the payment to be confirmed.
 */
export function SinglePackagePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const packageId = params.get('packageId') ?? '';
  const checkoutId = params.get('checkoutId');
  const info = useSubscriptionInfo();
  const signedIn = useSignedIn();
  const pkg = info.data?.packages.find((entry) => entry.packageId === packageId);
  const back = { to: '/subscription', label: t('shop.allPackages') } as const;
  if (!packageId)
    return (
      <Page title={t('shop.package')}>
        <EmptyState
          title={t('shop.missing')}
          description={t('shop.missingText')}
          action={<ButtonLink href={href('/subscription')}>{t('shop.allPackages')}</ButtonLink>}
        />
      </Page>
    );
  return (
    <Page title={pkg?.name ?? t('shop.package')} back={back}>
      {checkoutId ? (
        // A checkout is its buyer's: followed once they are signed in.
        signedIn ? (
          <CheckoutProgress checkoutId={checkoutId} packageId={packageId} />
        ) : (
          <SignInGate>{null}</SignInGate>
        )
      ) : info.isPending ? (
        <Loading />
      ) : info.isError ? (
        <LoadError query={info} title={t('shop.error')} />
      ) : pkg ? (
        <PackageDetail pkg={pkg} info={info.data} />
      ) : (
        <EmptyState
          title={t('shop.unknown')}
          description={t('shop.unknownText')}
          action={<ButtonLink href={href('/subscription')}>{t('shop.allPackages')}</ButtonLink>}
        />
      )}
    </Page>
  );
}

function PackageDetail({ pkg, info }: { pkg: Package; info: SubscriptionInfo }) {
  const { t, i18n } = useTranslation();
  const { client, platform } = useServices();
  const amounts = useAmounts();
  const signedIn = useSignedIn();
  const whenSignedIn = useSignedInAction();
  const noteId = useId();
  const price = formatPrice(pkg.price, i18n.language);
  const plan = pkg.period !== 'once';
  const buy = useMutation({
    mutationFn: () => client.subscription.checkout({ packageId: pkg.packageId }),
    // The browser leaves for the provider's page; the button stays busy until it has.
    onSuccess: ({ url }) => platform.redirect(url),
  });
  const free = pkg.price.amount === 0;
  const current = info.current?.status === 'active' && info.current.packageId === pkg.packageId;
  const blocked = !info.payments || free || current;
  const label = !signedIn
    ? t('shop.signInToBuy')
    : plan
      ? t('shop.subscribe', {
          price: `${price} ${pkg.period === 'year' ? t('shop.perYear') : t('shop.perMonth')}`,
        })
      : t('shop.buy', { price });
  return (
    <Card as="section" aria-label={pkg.name}>
      <Stack gap={3}>
        {pkg.description && <Text>{pkg.description}</Text>}
        <Text size={4} weight="bold">
          {price}{' '}
          <Text as="span" tone="muted" size={2}>
            {pkg.period === 'month'
              ? t('shop.perMonth')
              : pkg.period === 'year'
                ? t('shop.perYear')
                : t('shop.once')}
          </Text>
        </Text>
        <Text>
          {t('shop.adds', {
            chats: amounts.chats(pkg.chats),
            goldCoins: amounts.goldCoins(pkg.goldCoins),
          })}
        </Text>
        {pkg.features.length > 0 && (
          <Stack as="ul" gap={1} style={{ margin: 0, paddingLeft: '1.25rem' }}>
            {pkg.features.map((feature) => (
              <Text as="li" key={feature} tone="muted">
                {feature}
              </Text>
            ))}
          </Stack>
        )}
        <Text tone="muted" size={2}>
          {pkg.period === 'month'
            ? t('shop.renewsMonth')
            : pkg.period === 'year'
              ? t('shop.renewsYear')
              : t('shop.paidOnce')}
        </Text>
        <Flex gap={3} align="center" wrap>
          <Button
            onClick={() => whenSignedIn(() => buy.mutate())}
            disabled={signedIn && blocked}
            aria-busy={buy.isPending || buy.isSuccess}
            aria-describedby={noteId}
          >
            {current ? t('shop.current') : label}
          </Button>
          {(buy.isPending || buy.isSuccess) && <Spinner label={t('common.loading')} />}
        </Flex>
        <Text id={noteId} tone="muted" size={2}>
          {!info.payments ? t('shop.notSetUp') : free ? t('shop.free') : t('shop.payWith')}
        </Text>
      </Stack>
    </Card>
  );
}

/** After the provider: waits for the payment's confirmation, then says what it came to. */
function CheckoutProgress({ checkoutId, packageId }: { checkoutId: string; packageId: string }) {
  const { t } = useTranslation();
  const { client, store } = useServices();
  const queries = useQueryClient();
  const amounts = useAmounts();
  const actor = useActorRef(checkoutMachine, { input: { client, checkoutId } });
  const state = useSelector(actor, (snapshot) =>
    typeof snapshot.value === 'string' ? snapshot.value : 'polling',
  );
  const status = useSelector(actor, (snapshot) => snapshot.context.status);
  const error = useSelector(actor, (snapshot) => snapshot.context.error as Error | null);
  useEffect(() => {
    const paid = actor.on('paid', (event) => {
      store.trigger.benefitsChanged({ benefits: event.status.benefits });
      void queries.invalidateQueries({ queryKey: shopKeys.subscription() });
      void queries.invalidateQueries({ queryKey: shopKeys.ledger() });
    });
    return () => paid.unsubscribe();
  }, [actor, store, queries]);
  const again = (
    <ButtonLink variant="soft" href={href('/single-package', { packageId })}>
      {t('shop.tryAgain')}
    </ButtonLink>
  );
  const ended = (title: string, text: string, action?: ReactNode) => (
    <EmptyState title={title} description={text} action={action} />
  );
  return (
    // Each new state is announced politely; the buttons in it stay reachable.
    <div aria-live="polite">
      {state === 'polling' ? (
        <Card as="section">
          <Stack gap={2}>
            <Spinner label={t('shop.waiting')} />
            <Heading as="h2" size={2}>
              {t('shop.waiting')}
            </Heading>
            <Text tone="muted">{t('shop.waitingText')}</Text>
          </Stack>
        </Card>
      ) : state === 'paid' && status ? (
        <Card as="section">
          <Stack gap={3}>
            <Heading as="h2" size={2}>
              {t('shop.paid')}
            </Heading>
            <Text>
              {t('shop.paidText', {
                chats: amounts.chats(status.benefits.chats),
                goldCoins: amounts.goldCoins(status.benefits.goldCoins),
              })}
            </Text>
            <Flex gap={2} wrap>
              <ButtonLink href={href('/user-subscription')}>{t('shop.toHistory')}</ButtonLink>
              <ButtonLink variant="soft" href={href('/recent-chats')}>
                {t('shop.toChats')}
              </ButtonLink>
            </Flex>
          </Stack>
        </Card>
      ) : state === 'cancelled' ? (
        ended(t('shop.cancelled'), t('shop.cancelledText'), again)
      ) : state === 'failed' ? (
        ended(t('shop.failed'), t('shop.failedText'), again)
      ) : state === 'expired' ? (
        ended(t('shop.expired'), t('shop.expiredText'), again)
      ) : state === 'timedOut' ? (
        ended(
          t('shop.timedOut'),
          t('shop.timedOutText'),
          <Button onClick={() => actor.send({ type: 'RETRY' })}>{t('shop.checkAgain')}</Button>,
        )
      ) : (
        ended(
          t('shop.statusError'),
          error ? errorText(error, t) : t('common.somethingWrong'),
          <Button onClick={() => actor.send({ type: 'RETRY' })}>{t('common.retry')}</Button>,
        )
      )}
    </div>
  );
}
