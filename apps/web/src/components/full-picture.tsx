import { useTranslation } from 'react-i18next';
import { ButtonLink, Dialog, Flex, Stack } from '@mates/ui';

/** A picture full size in a dialog, with "Save picture"; its alternative text is its prompt. */
export function FullPicture({
  open,
  onOpenChange,
  url,
  prompt,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  url: string;
  prompt: string;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('picture.full')}
      width={1100}
      closeLabel={t('auth.close')}
    >
      <Stack gap={3}>
        <img src={url} alt={prompt} style={{ width: '100%', height: 'auto', display: 'block' }} />
        <Flex justify="end">
          <ButtonLink size="small" variant="soft" href={url} download>
            {t('picture.save')}
          </ButtonLink>
        </Flex>
      </Stack>
    </Dialog>
  );
}
