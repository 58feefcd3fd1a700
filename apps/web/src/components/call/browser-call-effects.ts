import { CALL_AUDIO, openCallSocket } from '@mates/api-client';
import type { CallConnector, CallMicrophone, CallPlayer } from '@mates/state-machines';
import { loadSpeechDetector, type SpeechDetectorOptions } from './speech-detector';

// The AudioWorklet that hands the microphone's frames to the page, as a file of the app's own
// origin: the Content-Security-Policy refuses a worklet from a `blob:` (or inlined `data:`) address.
import captureWorkletUrl from './capture-worklet.js?url&no-inline';

/** The Web Speech recognizer, as far as a call uses it. */
interface Recognizer {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult:
    | ((event: {
        resultIndex: number;
        results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
      }) => void)
    | null;
  onend: (() => void) | null;
  start: () => void;
  stop: () => void;
}

function recognizerClass(): (new () => Recognizer) | null {
  const w = window as unknown as {
    SpeechRecognition?: new () => Recognizer;
    webkitSpeechRecognition?: new () => Recognizer;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/**
 * The browser's microphone for a call: `getUserMedia` (echo cancellation on, so the mate's
 * voice is not heard as the person's), an AudioWorklet that passes frames to Silero voice
 * activity detection ({@link loadSpeechDetector}, `vad` tunes it: the pause above all),
 * utterances at 16 kHz; with `transcriber: 'browser'`, the browser's speech recognition writes
 * the words.
 */
export function browserMicrophone(
  vad: SpeechDetectorOptions = {},
  language = 'en',
): CallMicrophone {
  return {
    start(handlers) {
      let stopped = false;
      let muted = false;
      let cleanup = () => {};
      let recognizer: Recognizer | null = null;
      let mute = () => {};
      void (async () => {
        let stream: MediaStream;
        try {
          stream = await navigator.mediaDevices.getUserMedia({
            audio: { echoCancellation: true, noiseSuppression: true, channelCount: 1 },
          });
        } catch (error) {
          if (!stopped) handlers.onDenied(error);
          return;
        }
        if (stopped) {
          stream.getTracks().forEach((track) => track.stop());
          return;
        }
        let context: AudioContext;
        try {
          context = new AudioContext({ sampleRate: CALL_AUDIO.sampleRate });
        } catch {
          context = new AudioContext();
        }
        const [loaded, worklet] = await Promise.allSettled([
          loadSpeechDetector({ ...vad, sampleRate: context.sampleRate }, (event) => {
            if (stopped || muted) return;
            if (event.type === 'start') handlers.onSpeechStart();
            if (event.type === 'misfire') handlers.onMisfire();
            // Utterances at 16 kHz: the detector's rate is the call's (`CALL_AUDIO`).
            if (event.type === 'end') handlers.onSpeechEnd(event.samples);
          }),
          context.audioWorklet.addModule(captureWorkletUrl),
        ]);
        if (loaded.status === 'rejected' || worklet.status === 'rejected') {
          // Without its worklet or its detector the microphone hears nothing: the call fails
          // rather than wait.
          if (loaded.status === 'fulfilled') void loaded.value.close();
          stream.getTracks().forEach((track) => track.stop());
          void context.close();
          if (!stopped)
            handlers.onDenied(
              worklet.status === 'rejected'
                ? worklet.reason
                : (loaded as PromiseRejectedResult).reason,
            );
          return;
        }
        const detector = loaded.value;
        if (stopped) {
          stream.getTracks().forEach((track) => track.stop());
          void context.close();
          void detector.close();
          return;
        }
        const source = context.createMediaStreamSource(stream);
        const node = new AudioWorkletNode(context, 'mates-call-capture');
        node.port.onmessage = (message: MessageEvent<Float32Array>) => {
          if (!muted) detector.push(message.data);
        };
        source.connect(node);
        const Recognition = handlers.transcriber === 'browser' ? recognizerClass() : null;
        if (Recognition) {
          recognizer = new Recognition();
          recognizer.lang = language;
          recognizer.continuous = true;
          recognizer.interimResults = false;
          recognizer.onresult = (event) => {
            for (let i = event.resultIndex; i < event.results.length; i += 1) {
              const result = event.results[i]!;
              if (result.isFinal && !muted) handlers.onText(result[0]?.transcript ?? '');
            }
          };
          // The recognizer stops by itself after a silence: keep it going for the call.
          recognizer.onend = () => !stopped && recognizer?.start();
          recognizer.start();
        }
        cleanup = () => {
          node.port.onmessage = null;
          source.disconnect();
          node.disconnect();
          stream.getTracks().forEach((track) => track.stop());
          void context.close();
          void detector.close();
        };
        handlers.onReady();
        // The detector's state is dropped on mute so that a half-heard word is not sent.
        mute = () => detector.reset();
      })();
      return {
        setMuted(value) {
          muted = value;
          if (value) mute();
        },
        stop() {
          stopped = true;
          if (recognizer) {
            recognizer.onend = null;
            recognizer.stop();
          }
          cleanup();
        },
      };
    },
  };
}

/**
 * Plays a call's sentence clips through one `<audio>` element (what the page's voice player
 * uses too): each clip as an object URL, stopped at once on barge-in.
 */
export function elementCallPlayer(audio: HTMLAudioElement = new Audio()): CallPlayer {
  return {
    play(clip, handlers) {
      const url = URL.createObjectURL(new Blob([clip.audio], { type: clip.mimeType }));
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        audio.onended = null;
        audio.onerror = null;
        URL.revokeObjectURL(url);
      };
      audio.onended = () => {
        finish();
        handlers.onEnded();
      };
      audio.onerror = () => {
        finish();
        handlers.onError(audio.error);
      };
      audio.src = url;
      audio.play().catch((error: unknown) => {
        if (done) return;
        finish();
        handlers.onError(error);
      });
      return () => {
        audio.pause();
        finish();
      };
    },
  };
}

/** Opens a call's socket on the API's origin (`openCallSocket`). */
export function socketConnector(apiBase: string): CallConnector {
  return (ticket, handlers) =>
    openCallSocket(ticket, {
      baseUrl: apiBase,
      onMessage: handlers.onMessage,
      onSentence: handlers.onSentence,
      onClose: handlers.onClose,
    });
}
