import { useTranslation } from 'react-i18next';
import { VOICE_SAMPLE_MAX, type VoiceCatalog } from '@mates/api-client';
import { Select, Stack, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { SampleButton, useVoiceOption } from './voice-parts';

/** The select's value for "Default for this mate" (`null`): a select item needs a string. */
const DEFAULT = 'default';

/** A voice sample's text: the mate's greeting, or a fixed line, within what a sample may say. */
export function sampleText(greeting: string | undefined, fallback: string): string {
  const text =
    (greeting ?? '')
      .replace(/[*_`#>]/g, '')
      .replace(/\s+/g, ' ')
      .trim() || fallback;
  return text.length > VOICE_SAMPLE_MAX ? text.slice(0, VOICE_SAMPLE_MAX).trimEnd() : text;
}

/**
 * The mate editor's "Voice": the server's voices (name, gender, language) or the default for
 * the mate, with "Preview voice" playing a short sample through the page's one player.
 */
export function VoiceField({
  catalog,
  value,
  onChange,
  greeting,
}: {
  catalog: VoiceCatalog;
  /** The chosen voice id, or `null` for the default. */
  value: string | null;
  onChange: (voice: string | null) => void;
  /** The mate's greeting, spoken by the preview when there is one. */
  greeting?: string;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const option = useVoiceOption();
  const text = sampleText(greeting, t('voice.previewLine'));
  return (
    <Stack gap={2}>
      <Select
        label={t('voice.field')}
        value={value ?? DEFAULT}
        onValueChange={(chosen) => onChange(chosen === DEFAULT ? null : chosen)}
        options={[
          { value: DEFAULT, label: t('voice.defaultVoice') },
          ...catalog.voices.map((voice) => ({ value: voice.voiceId, label: option(voice) })),
        ]}
      />
      <Text size={2} tone="muted">
        {t('voice.fieldHint')}
      </Text>
      <SampleButton
        sampleKey={`preview:${value ?? ''}:${text}`}
        load={() =>
          client.voice
            .textToAudio({ text, ...(value ? { voice: value } : {}) })
            .then((clip) => clip.audioUrl)
        }
        play={t('voice.preview')}
        stop={t('voice.stopPreview')}
        failed={(message) => t('voice.previewFailed', { message })}
      />
    </Stack>
  );
}
