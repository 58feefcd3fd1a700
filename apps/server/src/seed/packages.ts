import type { Insertable } from 'kysely';
import type { PackageTable } from '../db/schema';
import { toJson } from '../db/dialect';

/** What Mates offers out of the box; operators change prices in the database. */
export const PACKAGES: Insertable<PackageTable>[] = [
  {
    id: 'free',
    name: 'Free',
    description: 'Everything you need to meet your first mates.',
    price_amount: 0,
    price_currency: 'USD',
    period: 'month',
    chats: 50,
    gold_coins: 0,
    features: toJson(['50 messages a month', 'All public mates', 'Personas and favorites']),
    sort: 0,
  },
  {
    id: 'plus',
    name: 'Plus',
    description: 'For daily conversations.',
    price_amount: 999,
    price_currency: 'USD',
    period: 'month',
    chats: 3000,
    gold_coins: 200,
    features: toJson([
      '3,000 messages a month',
      '200 gold coins for images and voice',
      'Longer memory',
    ]),
    sort: 1,
  },
  {
    id: 'pro',
    name: 'Pro',
    description: 'No limits worth noticing.',
    price_amount: 2499,
    price_currency: 'USD',
    period: 'month',
    chats: 20000,
    gold_coins: 1000,
    features: toJson(['20,000 messages a month', '1,000 gold coins', 'Priority replies']),
    sort: 2,
  },
  {
    id: 'coins-500',
    name: '500 gold coins',
    description: 'A one-off top-up for images and voice.',
    price_amount: 499,
    price_currency: 'USD',
    period: 'once',
    chats: 0,
    gold_coins: 500,
    features: toJson(['500 gold coins', 'Never expire']),
    sort: 3,
  },
];
