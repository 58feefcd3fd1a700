import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { isLoggedIn } from '@mates/state-machines';
import { Balances } from '@mates/ui';
import { useServices } from '../lib/services-context';

/**
 * The signed-in person's chats and gold coins, as the header shows them, for the screens shown
 * without the header (docs/product.md, routes); nothing for a visitor.
 */
export function AccountBalances() {
  const { t } = useTranslation();
  const { store } = useServices();
  const user = useSelector(store, (state) => state.context);
  if (!isLoggedIn(user)) return null;
  return (
    <Balances
      chats={user.userBenefits.chats}
      goldCoins={user.userBenefits.goldCoins}
      labels={{
        chats: (count) => t('common.chats', { count }),
        goldCoins: (count) => t('common.goldCoins', { count }),
      }}
    />
  );
}
