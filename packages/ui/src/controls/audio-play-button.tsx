'use client';

import { useId } from 'react';
import { VisuallyHidden as RadixVisuallyHidden } from '@radix-ui/react-visually-hidden';
import { IconButton } from './button';
import { Tooltip } from './tooltip';

/** Where a message's voice stands: as the page-wide voice player says. */
export type AudioPlayState = 'idle' | 'loading' | 'playing' | 'error';

/** Names of {@link AudioPlayButton} in each state, in the app's language. */
export interface AudioPlayButtonLabels {
  /** `idle`: starts the voice. */
  play: string;
  /** `playing`: stops it. */
  stop: string;
  /** `loading`: the voice is being fetched (pressing stops it). */
  loading: string;
  /** `error`: the last try failed; pressing tries again. */
  retry: string;
}

const ENGLISH: AudioPlayButtonLabels = {
  play: 'Play voice',
  stop: 'Stop voice',
  loading: 'Loading voice',
  retry: 'Voice failed — try again',
};

/** Props of {@link AudioPlayButton}. */
export interface AudioPlayButtonProps {
  /** Where the voice of this message stands. */
  state: AudioPlayState;
  /** Pressed in `idle` or `error`: start (or retry) the voice. */
  onPlay: () => void;
  /** Pressed in `loading` or `playing`: stop it. */
  onStop: () => void;
  /** Names for the states; default English. */
  labels?: AudioPlayButtonLabels;
  /**
   * A hint shown on hover and focus and given to screen readers as the button's description,
   * e.g. what hearing it costs.
   */
  description?: string;
  /** Why the voice failed (`error` state), added to the description. */
  error?: string;
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
const RetryIcon = () => (
  <svg
    width="20"
    height="20"
    viewBox="0 0 24 24"
    aria-hidden="true"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
  >
    <path d="M21 12a9 9 0 1 1-3-6.7M21 3v6h-6" />
  </svg>
);

/**
 * A message's play button, driven from outside: it shows `state` (play, loading with
 * `aria-busy`, stop, or failed with a retry) and reports presses through `onPlay` and `onStop`.
 * It plays nothing itself, so one player can keep one message playing at a time across the page.
 */
export function AudioPlayButton({
  state,
  onPlay,
  onStop,
  labels = ENGLISH,
  description,
  error,
}: AudioPlayButtonProps) {
  const id = useId();
  const label =
    state === 'playing'
      ? labels.stop
      : state === 'loading'
        ? labels.loading
        : state === 'error'
          ? labels.retry
          : labels.play;
  const said = [state === 'error' ? error : undefined, description].filter(Boolean).join(' ');
  const button = (
    <IconButton
      label={label}
      icon={state === 'playing' ? <StopIcon /> : state === 'error' ? <RetryIcon /> : <PlayIcon />}
      size="small"
      variant={state === 'error' ? 'danger' : 'ghost'}
      aria-busy={state === 'loading'}
      aria-describedby={said ? id : undefined}
      // The tooltip shows the description; a native title would repeat the name over it.
      title={description ? undefined : label}
      onClick={state === 'loading' || state === 'playing' ? onStop : onPlay}
    />
  );
  return (
    <>
      {description ? <Tooltip content={description}>{button}</Tooltip> : button}
      {said && <RadixVisuallyHidden id={id}>{said}</RadixVisuallyHidden>}
    </>
  );
}
