import { useTranslation } from 'react-i18next';
import { GROUP_TURN_ORDERS, type GroupTurnOrder } from '@mates/api-client';
import { Select } from '@mates/ui';

const ORDER_TEXT = {
  natural: 'group.orderNatural',
  list: 'group.orderList',
  manual: 'group.orderManual',
} as const satisfies Record<GroupTurnOrder, string>;

/** Who speaks after the person's message: natural, list or manual, each said in full. */
export function TurnOrderSelect({
  value,
  onValueChange,
}: {
  value: GroupTurnOrder;
  onValueChange: (order: GroupTurnOrder) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('group.order')}
      value={value}
      onValueChange={(order) => onValueChange(order as GroupTurnOrder)}
      options={GROUP_TURN_ORDERS.map((order) => ({ value: order, label: t(ORDER_TEXT[order]) }))}
    />
  );
}
