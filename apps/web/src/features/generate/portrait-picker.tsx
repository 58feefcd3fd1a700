import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import { Avatar, Button, Flex, ImageChoices, Stack, Text, TextField } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { portraitChoicesQuery } from './api/generate-queries';
import { Loading } from '../../components/states';
import type { StudioActor } from './studio';
import { errorText } from '../../i18n/error-text';

/** What `POST /mate/setPortrait` takes (docs: PNG, JPEG, WebP or GIF, up to 8 MB). */
const PORTRAIT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const PORTRAIT_MAX_BYTES = 8 * 1024 * 1024;

/** Reads a file as a `data:` URL. */
function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * The portrait: one of the generated choices ("Show others" draws new ones) or an uploaded
 * image, checked here first and shown as a preview; it is applied once the mate is saved. The
 * choices are drawn with `seed`, or one made from the name and handed to `onSeed` to keep.
 */
export function PortraitPicker({
  actor,
  current,
  seed: keptSeed,
  onSeed,
}: {
  actor: StudioActor;
  current: string | null;
  seed: string | null;
  onSeed: (seed: string) => void;
}) {
  const { t } = useTranslation();
  const { client, platform } = useServices();
  const portrait = useSelector(actor, (snapshot) => snapshot.context.portrait);
  const name = useSelector(actor, (snapshot) => snapshot.context.draft?.name ?? '');
  const [fileProblem, setFileProblem] = useState<string>();
  // The seed is fixed when the portraits are first drawn: typing the name must not redraw them,
  // and work restored later draws the same ones, the picked one among them.
  const [firstSeed] = useState(() => keptSeed ?? (name.trim() || 'mate'));
  const seed = keptSeed ?? firstSeed;
  useEffect(() => {
    if (keptSeed === null) onSeed(firstSeed);
  }, [firstSeed, keptSeed, onSeed]);
  const showOthers = () => {
    const [, base, round] = /^(.*?)(?: (\d+))?$/.exec(seed)!;
    onSeed(`${base} ${Number(round ?? 0) + 1}`);
  };
  const choices = useQuery(portraitChoicesQuery(client, seed));
  const list = choices.data ?? [];
  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (!PORTRAIT_TYPES.includes(file.type)) return setFileProblem(t('generate.uploadType'));
    if (file.size > PORTRAIT_MAX_BYTES) return setFileProblem(t('generate.uploadSize'));
    setFileProblem(undefined);
    try {
      const url = await readDataUrl(file);
      actor.send({
        type: 'PORTRAIT.CHANGE',
        portrait: { image: url.slice(url.indexOf(',') + 1), url },
      });
    } catch (error) {
      platform.logError('A portrait file could not be read', error);
      setFileProblem(t('generate.uploadType'));
    }
  };
  return (
    <Stack gap={3} as="section" aria-labelledby="studio-portrait">
      <Text id="studio-portrait" weight="medium">
        {t('generate.portrait')}
      </Text>
      {choices.isPending ? (
        <Loading label={t('generate.portraitsLoading')} />
      ) : (
        <ImageChoices
          label={t('generate.portraitChoices')}
          value={portrait && 'choiceId' in portrait ? portrait.choiceId : null}
          options={list.map((choice, index) => ({
            value: choice.choiceId,
            src: choice.url,
            alt: t('generate.portraitAlt', { number: index + 1, count: list.length }),
          }))}
          onValueChange={(choiceId) =>
            actor.send({
              type: 'PORTRAIT.CHANGE',
              portrait: { choiceId, url: list.find((c) => c.choiceId === choiceId)!.url },
            })
          }
        />
      )}
      {choices.isError && <Text tone="danger">{errorText(choices.error, t)}</Text>}
      <Flex gap={2} wrap>
        <Button size="small" variant="soft" onClick={showOthers}>
          {t('generate.showOthers')}
        </Button>
        {portrait && (
          <Button
            size="small"
            variant="ghost"
            onClick={() => actor.send({ type: 'PORTRAIT.CHANGE', portrait: null })}
          >
            {t('generate.clearPortrait')}
          </Button>
        )}
      </Flex>
      <TextField
        type="file"
        label={t('generate.upload')}
        accept={PORTRAIT_TYPES.join(',')}
        error={fileProblem}
        onChange={(event) => void upload(event.target.files?.[0])}
      />
      <Text size={1} tone="muted">
        {t('generate.uploadHint')}
      </Text>
      {(portrait && 'image' in portrait) || (!portrait && current) ? (
        <Flex gap={3} align="center">
          <Avatar
            src={portrait ? portrait.url : current}
            name={portrait ? t('generate.uploaded') : name}
            size="large"
          />
          {portrait && <Text size={2}>{t('generate.uploaded')}</Text>}
        </Flex>
      ) : null}
    </Stack>
  );
}
