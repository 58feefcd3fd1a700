import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import { ApiError, type ApiClient, type VoiceCatalog } from '@mates/api-client';
import { audioPlaybackMachine, type AudioPlayer } from '@mates/state-machines';
import type { AudioPlayState } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { serverKeys } from '../../lib/query-keys';
import { useRefreshBenefits } from '../../hooks/use-refresh-benefits';
import { messageText } from '../../i18n/error-text';

/**
 * An {@link AudioPlayer} over one `<audio>` element: playing sets its `src` and plays it;
 * stopping pauses it and clears `src`. Starting another URL silences the one before, so the
 * element never reports the end or failure of audio nobody is waiting for.
 */
export function createAudioElementPlayer(audio: HTMLAudioElement): AudioPlayer {
  let current: object | null = null;
  return {
    play(url, { onEnded, onError }) {
      const token = {};
      current = token;
      const detach = () => {
        audio.removeEventListener('ended', ended);
        audio.removeEventListener('error', failed);
      };
      const finish = (then: () => void) => {
        if (current !== token) return;
        current = null;
        detach();
        then();
      };
      const ended = () => finish(onEnded);
      const failed = () => finish(() => onError(audio.error ?? new Error('audio error')));
      audio.addEventListener('ended', ended);
      audio.addEventListener('error', failed);
      audio.src = url;
      audio.play().catch((error: unknown) => {
        // Stopping or replacing the source aborts the pending play(): not a failure.
        if (error instanceof DOMException && error.name === 'AbortError') return;
        finish(() => onError(error));
      });
      return () => {
        detach();
        if (current !== token) return;
        current = null;
        audio.pause();
        audio.removeAttribute('src');
        audio.load();
      };
    },
  };
}

/** A sample being heard (a voice preview), apart from messages. */
interface SampleState {
  key: string | null;
  /** The screen it was asked on: leaving it ends the sample. */
  path?: string;
  state: AudioPlayState;
  error: unknown;
}

interface VoiceContextValue {
  actor: Actor<typeof audioPlaybackMachine>;
  player: AudioPlayer;
  sample: SampleState;
  playSample: (key: string, load: () => Promise<string>) => void;
  stopSample: () => void;
}

const VoiceContext = createContext<VoiceContextValue | null>(null);

const IDLE_SAMPLE: SampleState = { key: null, state: 'idle', error: null };

/**
 * A screen's one voice player: a hidden `<audio>` element and the `audioPlaybackMachine` that
 * drives it, for everything under it (each screen that speaks has its own: see `ChatPage`). One sound at a time: a message stops a sample and a
 * sample stops a message. A first hearing that costs gold coins refreshes the user's benefits.
 */
export function VoiceProvider({ children }: { children: ReactNode }) {
  const { client } = useServices();
  const refreshBenefits = useRefreshBenefits();
  const audio = useRef<HTMLAudioElement | null>(null);
  // One adapter over the one element, made on first use (the element exists by then: plays
  // come from presses after the first render), so a new sound silences the one before.
  const shared = useRef<AudioPlayer | null>(null);
  const elementPlayer = useMemo<AudioPlayer>(
    () => ({
      play: (url, handlers) => {
        if (!audio.current) {
          handlers.onError(new Error('no audio element'));
          return () => {};
        }
        shared.current ??= createAudioElementPlayer(audio.current);
        return shared.current.play(url, handlers);
      },
    }),
    [],
  );
  const actor = useActorRef(audioPlaybackMachine, { input: { client, player: elementPlayer } });
  const [sample, setSample] = useState<SampleState>(IDLE_SAMPLE);
  const stopCurrentSample = useRef<(() => void) | null>(null);
  const stopSample = useCallback(() => {
    stopCurrentSample.current?.();
    stopCurrentSample.current = null;
    setSample(IDLE_SAMPLE);
  }, []);

  // Leaving a screen silences it; so does leaving the screens that speak (a detached <audio>
  // element would play on).
  const { pathname } = useLocation();
  useEffect(() => {
    const element = audio.current;
    return () => element?.pause();
  }, []);
  useEffect(() => {
    actor.send({ type: 'STOP' });
    stopCurrentSample.current?.();
    stopCurrentSample.current = null;
  }, [pathname, actor]);

  useEffect(() => {
    const charged = actor.on('charged', () => refreshBenefits());
    // A message starting to play ends any sample.
    const playing = actor.subscribe((snapshot) => {
      if (!snapshot.matches('idle') && stopCurrentSample.current) stopSample();
    });
    return () => {
      charged.unsubscribe();
      playing.unsubscribe();
    };
  }, [actor, stopSample, refreshBenefits]);

  const playSample = useCallback(
    (key: string, load: () => Promise<string>) => {
      actor.send({ type: 'STOP' });
      stopCurrentSample.current?.();
      let live = true;
      stopCurrentSample.current = () => {
        live = false;
      };
      setSample({ key, state: 'loading', error: null, path: pathname });
      load().then(
        (url) => {
          if (!live) return;
          const stop = elementPlayer.play(url, {
            onEnded: () => {
              stopCurrentSample.current = null;
              setSample(IDLE_SAMPLE);
            },
            onError: (error) => {
              stopCurrentSample.current = null;
              setSample({ key, state: 'error', error, path: pathname });
            },
          });
          stopCurrentSample.current = stop;
          setSample({ key, state: 'playing', error: null, path: pathname });
        },
        (error: unknown) => {
          if (!live) return;
          stopCurrentSample.current = null;
          setSample({ key, state: 'error', error, path: pathname });
        },
      );
    },
    [actor, elementPlayer, pathname],
  );

  const value = useMemo(
    () => ({
      actor,
      player: elementPlayer,
      // A sample asked for on another screen has ended with it.
      sample: sample.path === pathname ? sample : IDLE_SAMPLE,
      playSample,
      stopSample,
    }),
    [actor, elementPlayer, sample, pathname, playSample, stopSample],
  );
  return (
    <VoiceContext.Provider value={value}>
      {children}
      {/* Not shown: each message's own button plays and stops it. */}
      <audio ref={audio} data-voice-player preload="auto" />
    </VoiceContext.Provider>
  );
}

/** The page's voice player (see {@link VoiceProvider}). */
export function useVoicePlayer(): VoiceContextValue {
  const value = useContext(VoiceContext);
  if (!value) throw new Error('useVoicePlayer() outside VoiceProvider');
  return value;
}

/**
 * The voices text to speech offers. Not retried: a server without speech says so at once, and
 * the voice buttons are then just not shown.
 */
const voicesQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: serverKeys.voices(),
    queryFn: ({ signal }) => client.voice.voices({ signal }),
    retry: false,
    staleTime: 5 * 60_000,
  });

/**
 * The server's voices, cost and transcription; `null` while unknown, and when the server has no
 * voice (5007 "Voice is not set up on this server.") or cannot say: then nothing speaks.
 */
export function useVoiceCatalog(): VoiceCatalog | null {
  const { client } = useServices();
  const catalog = useQuery(voicesQuery(client));
  return catalog.data ?? null;
}

/**
 * Why a voice failed, in words for the button's description: the server's reason, that the
 * browser refused to play sound (`NotAllowedError` from `audio.play()`, e.g. autoplay rules), or
 * a plain "could not be played".
 */
export function useVoiceError(): (error: unknown) => string {
  const { t } = useTranslation();
  return (error) => {
    if (error instanceof ApiError) return messageText(error.message, t);
    if (error instanceof DOMException && error.name === 'NotAllowedError')
      return t('voice.blocked');
    return t('voice.playFailed');
  };
}

/** Where one message's voice stands, and how to play and stop it. */
export function useMessageVoice(messageId: string, voice?: string) {
  const { actor } = useVoicePlayer();
  const state = useSelector(actor, (snapshot): AudioPlayState => {
    if (snapshot.context.messageId !== messageId) return 'idle';
    if (snapshot.matches('loading') || snapshot.matches('starting')) return 'loading';
    if (snapshot.matches('playing')) return 'playing';
    if (snapshot.matches('error')) return 'error';
    return 'idle';
  });
  const error = useSelector(actor, (snapshot) =>
    snapshot.context.messageId === messageId ? snapshot.context.error : null,
  );
  return {
    state,
    error,
    play: () => actor.send({ type: 'PLAY', messageId, ...(voice ? { voice } : {}) }),
    stop: () => actor.send({ type: 'STOP' }),
  };
}
