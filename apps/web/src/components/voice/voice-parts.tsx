import { useTranslation } from 'react-i18next';
import type { Voice, VoiceCatalog } from '@mates/api-client';
import {
  AudioPlayButton,
  Button,
  Flex,
  Stack,
  Text,
  type AudioPlayButtonLabels,
  type AudioPlayState,
} from '@mates/ui';
import { useMessageVoice, useVoiceError, useVoicePlayer } from './voice-player';

/** The play button's names in each state, in the app's language. */
export function useVoiceLabels(): AudioPlayButtonLabels {
  const { t } = useTranslation();
  return {
    play: t('voice.play'),
    stop: t('voice.stop'),
    loading: t('voice.loading'),
    retry: t('voice.retry'),
  };
}

/** What hearing a message costs, for the button's tooltip: "1 gold coin the first time" or "Free". */
export function useVoiceCost(catalog: VoiceCatalog): string {
  const { t } = useTranslation();
  return catalog.costPerMessage > 0
    ? t('voice.cost', { count: catalog.costPerMessage })
    : t('voice.free');
}

/** A voice as a choice reads: "Sally (female, en-US)". */
export function useVoiceOption(): (voice: Voice) => string {
  const { t } = useTranslation();
  return (voice) =>
    t('voice.option', {
      name: voice.name,
      gender: t(`voice.genders.${voice.gender}`),
      language: voice.language,
    });
}

/**
 * The play button of one mate message, driven by the page's voice player: one message plays at
 * a time, and the cost shows on its tooltip.
 */
export function MessageVoiceButton({
  messageId,
  catalog,
}: {
  messageId: string;
  catalog: VoiceCatalog;
}) {
  const voice = useMessageVoice(messageId);
  const labels = useVoiceLabels();
  const cost = useVoiceCost(catalog);
  const describeError = useVoiceError();
  return (
    <AudioPlayButton
      state={voice.state}
      onPlay={voice.play}
      onStop={voice.stop}
      labels={labels}
      description={cost}
      error={voice.state === 'error' ? describeError(voice.error) : undefined}
    />
  );
}

/**
 * A sample's button ("Preview voice", "Play sample") with its words on it: it plays, stops
 * while loading or playing, and says plainly why a sample failed.
 */
export function SampleButton({
  sampleKey,
  load,
  play,
  stop,
  failed,
}: {
  /** Which sample: the page's voice player tells its state by this key. */
  sampleKey: string;
  /** Gets the sample's URL (e.g. from `POST /voice/textToAudio`). */
  load: () => Promise<string>;
  play: string;
  stop: string;
  /** The failure's sentence, given the reason. */
  failed: (message: string) => string;
}) {
  const { t } = useTranslation();
  const { sample, playSample, stopSample } = useVoicePlayer();
  const describeError = useVoiceError();
  const state: AudioPlayState = sample.key === sampleKey ? sample.state : 'idle';
  const busy = state === 'loading' || state === 'playing';
  return (
    <Stack gap={1}>
      <Flex>
        <Button
          variant="soft"
          size="small"
          aria-busy={state === 'loading'}
          onClick={() => (busy ? stopSample() : playSample(sampleKey, load))}
        >
          {state === 'loading' ? t('voice.loading') : busy ? stop : play}
        </Button>
      </Flex>
      {state === 'error' && (
        <Text role="alert" size={2} tone="danger">
          {failed(describeError(sample.error))}
        </Text>
      )}
    </Stack>
  );
}
