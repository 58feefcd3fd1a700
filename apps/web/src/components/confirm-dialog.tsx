import { useTranslation } from 'react-i18next';
import { Button, Dialog, Flex, Text } from '@mates/ui';

/**
 * Asks before something that cannot be undone; focus returns where it was. While `busy`, the
 * confirming button says so and a press does nothing (it would be done twice).
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirm,
  busy = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  text: string;
  confirm: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onCancel()}
      title={title}
      closeLabel={t('auth.close')}
    >
      <Text>{text}</Text>
      <Flex gap={2} justify="end">
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button variant="danger" onClick={() => !busy && onConfirm()} aria-busy={busy}>
          {confirm}
        </Button>
      </Flex>
    </Dialog>
  );
}
