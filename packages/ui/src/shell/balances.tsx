'use client';

import { styled } from '../theme/stitches.config';

const Row = /* @__PURE__ */ styled('span', {
  display: 'inline-flex',
  gap: '$3',
  fontSize: '$2',
  color: '$textMuted',
  whiteSpace: 'nowrap',
  variants: {
    // The header is short of room on a phone; a page has it.
    wideOnly: { true: { display: 'none', '@bp2': { display: 'inline-flex' } } },
  },
});

/** Props of {@link Balances}. */
export interface BalancesProps {
  /** Chats left. */
  chats: number;
  /** Gold coins held. */
  goldCoins: number;
  /** Each count in words, in the app's language; default English. */
  labels?: { chats: (count: number) => string; goldCoins: (count: number) => string };
  /** Shown on wide screens only (the header's place for it). Default `false`. */
  wideOnly?: boolean;
}

const ENGLISH = {
  chats: (count: number) => `${count} chats`,
  goldCoins: (count: number) => `${count} gold coins`,
};

/**
 * A signed-in person's balances: chats left and gold coins. The header shows them; a screen
 * shown without the header (the studio, "Your mates") shows the same beside its back link.
 */
export function Balances({ chats, goldCoins, labels = ENGLISH, wideOnly = false }: BalancesProps) {
  return (
    <Row wideOnly={wideOnly}>
      <span>{labels.chats(chats)}</span>
      <span>{labels.goldCoins(goldCoins)}</span>
    </Row>
  );
}
