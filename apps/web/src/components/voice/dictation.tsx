import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { VoiceCatalog } from '@mates/api-client';
import { IconButton, Text } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { recordingToWav } from './recording-wav';
import { useVoiceError } from './voice-player';

/** The part of the Web Speech API's recognizer dictation uses. */
interface Recognizer {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start: () => void;
  stop: () => void;
  abort: () => void;
}
type RecognizerClass = new () => Recognizer;

/** The browser's speech recognition class, where it has one (Chrome and Safari name it webkit…). */
function recognizerClass(): RecognizerClass | null {
  const w = window as unknown as {
    SpeechRecognition?: RecognizerClass;
    webkitSpeechRecognition?: RecognizerClass;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/**
 * A cache, for the page's life, of recognizers found to have no service behind them (Chromium
 * without Google's keys has the class, yet every start fails): they are not offered again.
 */
const servicelessRecognizers = new WeakSet<RecognizerClass>();

/** Recognizer errors that say the recognition service is missing here, not the microphone. */
const SERVICE_MISSING = new Set(['network', 'service-not-allowed', 'language-not-supported']);

/**
 * The browser's speech recognition where it can work now: it exists, it has not failed for
 * want of a service, and the browser is online (its recognizer is a remote service).
 */
function workingRecognizer(online: boolean): RecognizerClass | null {
  const Recognition = recognizerClass();
  return Recognition && online && !servicelessRecognizers.has(Recognition) ? Recognition : null;
}

const onConnectivity = (changed: () => void) => {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
};

/** Whether the browser says it is online, kept up to date. */
function useOnline(): boolean {
  return useSyncExternalStore(
    onConnectivity,
    () => navigator.onLine,
    () => true,
  );
}

/** Whether the browser can record the microphone for the server to transcribe. */
function canRecord(): boolean {
  return (
    typeof window.MediaRecorder === 'function' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function'
  );
}

/** How dictation works here: the browser's recognizer, the server's, or not at all. */
export type DictationMode = 'browser' | 'server' | null;

/**
 * Which dictation this browser and server offer: only one that can work, never a microphone
 * that cannot hear (a recognizer without its service, or offline, and no server transcription).
 */
export function dictationMode(catalog: VoiceCatalog | null, online = true): DictationMode {
  if (workingRecognizer(online)) return 'browser';
  if (catalog?.transcription && canRecord()) return 'server';
  return null;
}

/** Where dictation stands. */
export type DictationState = 'idle' | 'recording' | 'transcribing';

/** What {@link useDictation} gives the composer. */
export interface Dictation {
  mode: DictationMode;
  state: DictationState;
  /** What to say politely (recording, writing down, stopped), or `''`. */
  status: string;
  /** What went wrong, in plain words, or `''`. */
  error: string;
  /** Starts recording, or stops it. */
  toggle: () => void;
}

function base64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable recording'));
    reader.readAsDataURL(blob);
  });
}

/**
 * Talk instead of type: speech fills the message box after what was already written. The
 * browser's speech recognition writes as it hears (interim results); without it, a recording
 * goes to `POST /voice/transcribe` when the server offers it.
 */
export function useDictation({
  catalog,
  text,
  onText,
}: {
  catalog: VoiceCatalog | null;
  /** The box's text now. */
  text: string;
  /** Puts text in the box. */
  onText: (text: string) => void;
}): Dictation {
  const { t, i18n } = useTranslation();
  const { client } = useServices();
  const describeError = useVoiceError();
  const [state, setState] = useState<DictationState>('idle');
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const stopRef = useRef<(() => void) | null>(null);
  const online = useOnline();
  // Bumped when the recognizer turns out to have no service, so that the mode is read again.
  const [, setServiceless] = useState(0);
  const mode = dictationMode(catalog, online);

  // Leaving the page stops listening.
  useEffect(() => () => stopRef.current?.(), []);

  /** The typed text, with room for what is said after it. */
  const prefix = text.trim() ? `${text.trimEnd()} ` : '';

  const fail = (code: string) => {
    setStatus('');
    setError(
      SERVICE_MISSING.has(code)
        ? t('voice.recognitionUnavailable')
        : code === 'not-allowed' || code === 'NotAllowedError'
          ? t('voice.micDenied')
          : code === 'no-speech'
            ? t('voice.noSpeech')
            : t('voice.micFailed', { message: code }),
    );
  };

  const listen = (Recognition: RecognizerClass) => {
    const recognizer = new Recognition();
    recognizer.lang = i18n.language;
    recognizer.continuous = true;
    recognizer.interimResults = true;
    let failed = false;
    recognizer.onresult = (event) => {
      const heard = Array.from(event.results, (result) => result[0]?.transcript ?? '').join('');
      onText(prefix + heard.trim());
    };
    recognizer.onerror = (event) => {
      if (event.error === 'aborted') return;
      failed = true;
      if (SERVICE_MISSING.has(event.error)) {
        servicelessRecognizers.add(Recognition);
        setServiceless((count) => count + 1);
      }
      fail(event.error);
    };
    recognizer.onend = () => {
      stopRef.current = null;
      setState('idle');
      if (!failed) setStatus(t('voice.recorded'));
    };
    stopRef.current = () => recognizer.stop();
    recognizer.start();
    setState('recording');
    setStatus(t('voice.recording'));
  };

  const record = async () => {
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (problem) {
      fail(problem instanceof DOMException ? problem.name : String(problem));
      return;
    }
    const recorder = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = async () => {
      stopRef.current = null;
      stream.getTracks().forEach((track) => track.stop());
      const blob = new Blob(chunks, { type: recorder.mimeType || 'audio/webm' });
      if (blob.size === 0) {
        setState('idle');
        fail('no-speech');
        return;
      }
      setState('transcribing');
      setStatus(t('voice.transcribing'));
      try {
        // Sent as WAV, which every engine of the server reads; as recorded if it cannot be
        // decoded here (the engine may still read it).
        const sent = await recordingToWav(blob).catch(() => blob);
        const { text: said } = await client.voice.transcribe({
          audio: await base64(sent),
          mimeType: sent.type,
          language: i18n.language.split('-')[0],
        });
        setState('idle');
        if (!said.trim()) {
          fail('no-speech');
          return;
        }
        onText(prefix + said.trim());
        setStatus(t('voice.recorded'));
      } catch (problem) {
        setState('idle');
        setStatus('');
        setError(t('voice.micFailed', { message: describeError(problem) }));
      }
    };
    stopRef.current = () => recorder.stop();
    recorder.start();
    setState('recording');
    setStatus(t('voice.recording'));
  };

  const toggle = () => {
    if (state === 'recording') {
      stopRef.current?.();
      return;
    }
    if (state !== 'idle') return;
    setError('');
    const Recognition = workingRecognizer(online);
    if (mode === 'browser' && Recognition) listen(Recognition);
    else if (mode === 'server') void record();
  };

  return { mode, state, status, error, toggle };
}

const MicIcon = () => (
  <svg
    width="20"
    height="20"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    aria-hidden="true"
  >
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
  </svg>
);
const StopIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
    <rect x="6" y="6" width="12" height="12" rx="1" />
  </svg>
);

/** The composer's microphone: "Speak your message", or "Stop recording" while it listens. */
export function MicButton({ dictation }: { dictation: Dictation }) {
  const { t } = useTranslation();
  if (!dictation.mode) return null;
  const recording = dictation.state === 'recording';
  return (
    <IconButton
      label={recording ? t('voice.stopRecording') : t('voice.speak')}
      icon={recording ? <StopIcon /> : <MicIcon />}
      variant={recording ? 'danger' : 'soft'}
      aria-busy={dictation.state === 'transcribing'}
      onClick={dictation.toggle}
    />
  );
}

/**
 * What dictation says: its progress politely, its errors plainly (also the one that takes the
 * microphone away: the browser's recognition turned out not to work).
 */
export function DictationStatus({ dictation }: { dictation: Dictation }) {
  if (!dictation.mode && !dictation.error) return null;
  return (
    <>
      <Text role="status" size={2} tone="muted">
        {dictation.status}
      </Text>
      {dictation.error && (
        <Text role="alert" size={2} tone="danger">
          {dictation.error}
        </Text>
      )}
    </>
  );
}
