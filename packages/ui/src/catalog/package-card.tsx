'use client';

import type { Package } from '@mates/api-client';
import { formatPrice } from './format-price';
import { styled } from '../theme/stitches.config';
import { Button } from '../controls/button';

const Card = /* @__PURE__ */ styled('article', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$3',
  padding: '$5',
  borderRadius: '$3',
  border: '1px solid $border',
  backgroundColor: '$surface',
  variants: { highlighted: { true: { borderColor: '$accent', boxShadow: '$raised' } } },
});
const Name = /* @__PURE__ */ styled('h3', { margin: 0, fontSize: '$5' });
const Price = /* @__PURE__ */ styled('p', { margin: 0, fontSize: '$6', fontWeight: '$bold' });
const Per = /* @__PURE__ */ styled('span', {
  fontSize: '$2',
  fontWeight: '$regular',
  color: '$textMuted',
});
const Features = /* @__PURE__ */ styled('ul', {
  margin: 0,
  paddingLeft: '$5',
  color: '$textMuted',
  display: 'flex',
  flexDirection: 'column',
  gap: '$1',
});

/** Words the card shows, in the app's language. */
export interface PackageCardLabels {
  perMonth: string;
  perYear: string;
  once: string;
  choose: string;
  current: string;
  chats: (count: string) => string;
  goldCoins: (count: string) => string;
}

const ENGLISH: PackageCardLabels = {
  perMonth: '/ month',
  perYear: '/ year',
  once: 'once',
  choose: 'Choose',
  current: 'Your plan',
  chats: (count) => `${count} chats`,
  goldCoins: (count) => `${count} gold coins`,
};

/** Props of {@link PackageCard}. */
export interface PackageCardProps {
  pkg: Package;
  /** The caller's current package: the button says so and is inert. */
  current?: boolean;
  highlighted?: boolean;
  onChoose: (packageId: string) => void;
  locale?: string;
  labels?: PackageCardLabels;
}

/** A package on sale: name, price, chats, gold coins, features. */
export function PackageCard({
  pkg,
  current = false,
  highlighted,
  onChoose,
  locale = 'en',
  labels = ENGLISH,
}: PackageCardProps) {
  const price = formatPrice(pkg.price, locale);
  const count = new Intl.NumberFormat(locale);
  const period =
    pkg.period === 'month' ? labels.perMonth : pkg.period === 'year' ? labels.perYear : labels.once;
  return (
    <Card highlighted={highlighted ? true : undefined} aria-label={pkg.name}>
      <Name>{pkg.name}</Name>
      <Price>
        {price} <Per>{period}</Per>
      </Price>
      <p style={{ margin: 0 }}>
        {labels.chats(count.format(pkg.chats))} · {labels.goldCoins(count.format(pkg.goldCoins))}
      </p>
      <Features>
        {pkg.features.map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </Features>
      <Button
        variant={current ? 'soft' : 'solid'}
        aria-disabled={current}
        onClick={() => !current && onChoose(pkg.packageId)}
      >
        {current ? labels.current : labels.choose}
      </Button>
    </Card>
  );
}
