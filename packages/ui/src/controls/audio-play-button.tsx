'use client';

import { useEffect, useRef, useState } from 'react';
import { IconButton } from './button';

/** Props of {@link AudioPlayButton}. */
export interface AudioPlayButtonProps {
  /** Gets the audio's URL when first pressed (e.g. from text-to-audio); then it is reused. */
  loadSource: () => Promise<string>;
  /** Called when the audio cannot be fetched or played. */
  onError?: (error: unknown) => void;
  /** Names for the states; defaults in English. */
  labels?: { play: string; stop: string; loading: string };
}

const PlayIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <path d="M8 5v14l11-7z" />
  </svg>
);
const StopIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <rect x="6" y="6" width="12" height="12" rx="1" />
  </svg>
);

/** Plays a message aloud; pressing again stops it. */
export function AudioPlayButton({
  loadSource,
  onError,
  labels = { play: 'Play voice', stop: 'Stop voice', loading: 'Loading voice' },
}: AudioPlayButtonProps) {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'playing'>('idle');
  useEffect(() => () => audio.current?.pause(), []);
  const press = async () => {
    if (state === 'playing') {
      audio.current?.pause();
      setState('idle');
      return;
    }
    if (state === 'loading') return;
    if (!audio.current) {
      setState('loading');
      try {
        audio.current = new Audio(await loadSource());
        audio.current.addEventListener('ended', () => setState('idle'));
      } catch (error) {
        setState('idle');
        onError?.(error);
        return;
      }
    }
    setState('playing');
    await audio.current.play().catch((error: unknown) => {
      setState('idle');
      onError?.(error);
    });
  };
  const label =
    state === 'playing' ? labels.stop : state === 'loading' ? labels.loading : labels.play;
  return (
    <IconButton
      label={label}
      icon={state === 'playing' ? <StopIcon /> : <PlayIcon />}
      size="small"
      aria-busy={state === 'loading'}
      onClick={() => void press()}
    />
  );
}
