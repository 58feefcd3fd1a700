import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createBenefitsFixture,
  createVoiceCatalogFixture,
  mockChatStream,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Voice', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const room = '/chat-detail?roomId=room-1';

/** The page's one `<audio>` element. */
const player = (canvasElement: HTMLElement) =>
  canvasElement.ownerDocument.querySelector<HTMLAudioElement>('audio[data-voice-player]')!;

type Window = typeof window & { webkitSpeechRecognition?: unknown; SpeechRecognition?: unknown };

/** Takes the browser's speech recognition and recorder away for one story (restored after). */
function withoutDictation() {
  const w = window as Window;
  const saved = {
    webkit: w.webkitSpeechRecognition,
    plain: w.SpeechRecognition,
    recorder: w.MediaRecorder,
  };
  delete w.webkitSpeechRecognition;
  delete w.SpeechRecognition;
  // @ts-expect-error: a browser without MediaRecorder
  delete w.MediaRecorder;
  return () => {
    w.webkitSpeechRecognition = saved.webkit;
    w.SpeechRecognition = saved.plain;
    w.MediaRecorder = saved.recorder;
  };
}

/** A recognizer that "hears" two interim results and a final one when started. */
class FakeRecognition {
  lang = '';
  continuous = false;
  interimResults = false;
  onresult: ((event: { results: { transcript: string }[][] }) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  start() {
    setTimeout(() => this.onresult?.({ results: [[{ transcript: 'tell me' }]] }), 20);
    setTimeout(() => this.onresult?.({ results: [[{ transcript: 'tell me about the sea' }]] }), 40);
  }
  stop() {
    setTimeout(() => this.onend?.(), 0);
  }
  abort() {
    this.stop();
  }
}

/** A recognizer whose microphone is blocked. */
class DeniedRecognition extends FakeRecognition {
  override start() {
    setTimeout(() => {
      this.onerror?.({ error: 'not-allowed' });
      this.onend?.();
    }, 0);
  }
}

/**
 * A browser whose recognizer exists but has no service behind it (Chromium without Google's
 * keys): every start ends in a `network` error.
 */
class ServicelessRecognition extends FakeRecognition {
  override start() {
    setTimeout(() => {
      this.onerror?.({ error: 'network' });
      this.onend?.();
    }, 0);
  }
}

/** The browser says it is offline for one story (restored after). */
function offline() {
  const onLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;
  Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });
  return () => Object.defineProperty(Navigator.prototype, 'onLine', onLine);
}

function withRecognition(Recognition: unknown) {
  const restore = withoutDictation();
  (window as Window).webkitSpeechRecognition = Recognition;
  return restore;
}

/** Every mate message with text has a play button; the cost is its description. */
export const PlayAMessage: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(mockEndpoint('/user/benefits', () => createBenefitsFixture({ goldCoins: 41 }))),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const buttons = await within(log).findAllByRole('button', { name: 'Play voice' });
    // Two mate messages with text; the user's message has none.
    await expect(buttons).toHaveLength(2);
    await expect(buttons[1]).toHaveAccessibleDescription('1 gold coin the first time');
    await userEvent.click(buttons[1]!);
    await expect(await within(log).findByRole('button', { name: 'Stop voice' })).toBeVisible();
    await waitFor(() => expect(player(canvasElement).src).toMatch(/^data:audio\/wav;base64,/));
    // The first hearing charged: the benefits were asked again.
    await waitFor(() =>
      expect(app.services.store.getSnapshot().context.userBenefits.goldCoins).toBe(41),
    );
    // Stop: the element is silent and empty again.
    await userEvent.click(within(log).getByRole('button', { name: 'Stop voice' }));
    await expect(within(log).getAllByRole('button', { name: 'Play voice' })).toHaveLength(2);
    await expect(player(canvasElement).getAttribute('src')).toBeNull();
  },
};

/** While the link is fetched the button is busy. */
export const LoadingVoice: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/speech/link')) },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const [first] = await within(log).findAllByRole('button', { name: 'Play voice' });
    await userEvent.click(first!);
    const loading = await within(log).findByRole('button', { name: 'Loading voice' });
    await expect(loading).toHaveAttribute('aria-busy', 'true');
  },
};

/** A refused voice: the button says so, and the reason is its description. */
export const VoiceFails: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(mockEndpointError('/speech/link', 5000, 'You do not have enough gold coins.')),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const [first] = await within(log).findAllByRole('button', { name: 'Play voice' });
    await userEvent.click(first!);
    const failed = await within(log).findByRole('button', { name: 'Voice failed — try again' });
    await expect(failed).toHaveAccessibleDescription(
      'You do not have enough gold coins. 1 gold coin the first time',
    );
  },
};

/** The browser refuses to play sound (autoplay rules): it says so, and pressing again is the fix. */
export const BrowserBlocksSound: Story = {
  parameters: { app: { path: room, signedIn: true } },
  beforeEach: () => {
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = () =>
      Promise.reject(new DOMException('play() needs a gesture', 'NotAllowedError'));
    return () => {
      HTMLMediaElement.prototype.play = play;
    };
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const [first] = await within(log).findAllByRole('button', { name: 'Play voice' });
    await userEvent.click(first!);
    const failed = await within(log).findByRole('button', { name: 'Voice failed — try again' });
    await expect(failed).toHaveAccessibleDescription(
      'Your browser blocked the sound. Press play again. 1 gold coin the first time',
    );
  },
};

/** A server where hearing is free says so. */
export const FreeVoice: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/voice/voices', () => createVoiceCatalogFixture({ costPerMessage: 0 })),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const [first] = await within(log).findAllByRole('button', { name: 'Play voice' });
    await expect(first).toHaveAccessibleDescription('Free');
  },
};

/** Voice not set up (5007): no play buttons and no "Speak replies aloud". */
export const VoiceNotSetUp: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpointError('/voice/voices', 5007, 'Voice is not set up on this server.'),
      ),
    },
  },
  beforeEach: withoutDictation,
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await expect(
      await within(log).findByRole('button', { name: 'Regenerate reply' }),
    ).toBeVisible();
    await expect(within(log).queryByRole('button', { name: 'Play voice' })).toBeNull();
    await expect(canvas.queryByRole('switch', { name: 'Speak replies aloud' })).toBeNull();
    // Neither the browser nor the server can hear: no microphone.
    await expect(canvas.queryByRole('button', { name: 'Speak your message' })).toBeNull();
  },
};

/** "Speak replies aloud": a reply is played as soon as it is complete (and the choice is kept). */
export const SpeakRepliesAloud: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(mockChatStream({ reply: 'The tide is turning.', delayMs: 30 })) },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const speak = await canvas.findByRole('switch', { name: 'Speak replies aloud' });
    await expect(speak).not.toBeChecked();
    await userEvent.click(speak);
    await expect(speak).toBeChecked();
    await expect(app.services.store.getSnapshot().context.speakReplies).toBe(true);
    // History is not read out.
    await expect(player(canvasElement).getAttribute('src')).toBeNull();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Sing to me');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(player(canvasElement).src).toMatch(/^data:audio\/wav;base64,/));
  },
};

/** The browser hears: what is said is added after what was typed, as it is heard. */
export const SpeakYourMessage: Story = {
  parameters: { app: { path: room, signedIn: true } },
  beforeEach: () => withRecognition(FakeRecognition),
  play: async ({ canvas }) => {
    const box = await canvas.findByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'Hello.');
    await userEvent.click(canvas.getByRole('button', { name: 'Speak your message' }));
    // Dictation's own status (the composer has one of its own, empty meanwhile).
    await expect(await canvas.findByText('Recording. Speak now.')).toHaveRole('status');
    await waitFor(() => expect(box).toHaveValue('Hello. tell me about the sea'));
    await userEvent.click(canvas.getByRole('button', { name: 'Stop recording' }));
    await expect(await canvas.findByRole('button', { name: 'Speak your message' })).toBeVisible();
    await expect(await canvas.findByText('Recording stopped.')).toHaveRole('status');
  },
};

/** A blocked microphone is said plainly. */
export const MicrophoneBlocked: Story = {
  parameters: { app: { path: room, signedIn: true } },
  beforeEach: () => withRecognition(DeniedRecognition),
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Speak your message' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'The microphone is blocked. Allow it for this site to speak your message.',
    );
  },
};

/** No speech recognition in the browser: a recording goes to the server's transcription. */
export const TranscribedByTheServer: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/voice/voices', () => createVoiceCatalogFixture({ transcription: true })),
      ),
    },
  },
  beforeEach: () => {
    const restore = withoutDictation();
    const w = window as Window & { MediaRecorder: unknown };
    class FakeRecorder {
      mimeType = 'audio/webm';
      ondataavailable: ((event: { data: Blob }) => void) | null = null;
      onstop: (() => void) | null = null;
      start() {}
      stop() {
        this.ondataavailable?.({ data: new Blob(['voice'], { type: 'audio/webm' }) });
        setTimeout(() => this.onstop?.(), 0);
      }
    }
    w.MediaRecorder = FakeRecorder as unknown as typeof MediaRecorder;
    const media = navigator.mediaDevices;
    const getUserMedia = media?.getUserMedia;
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: async () => ({ getTracks: () => [] }) },
    });
    return () => {
      restore();
      Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: media });
      void getUserMedia;
    };
  },
  play: async ({ canvas }) => {
    const box = await canvas.findByRole('textbox', { name: 'Message' });
    await userEvent.click(await canvas.findByRole('button', { name: 'Speak your message' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Stop recording' }));
    await waitFor(() => expect(box).toHaveValue('Tell me about the lighthouse.'));
  },
};

/** Neither the browser nor the server can hear: no microphone. */
export const NoMicrophone: Story = {
  parameters: { app: { path: room, signedIn: true } },
  beforeEach: withoutDictation,
  play: async ({ canvas }) => {
    await canvas.findByRole('textbox', { name: 'Message' });
    await expect(await canvas.findByRole('switch', { name: 'Speak replies aloud' })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Speak your message' })).toBeNull();
  },
};

/** Offline, the browser's recognizer cannot hear and the server has no transcription: no microphone. */
export const OfflineWithoutTranscription: Story = {
  parameters: { app: { path: room, signedIn: true } },
  beforeEach: () => {
    const restoreRecognition = withRecognition(FakeRecognition);
    const restoreOnline = offline();
    return () => {
      restoreOnline();
      restoreRecognition();
    };
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('textbox', { name: 'Message' });
    await expect(await canvas.findByRole('switch', { name: 'Speak replies aloud' })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Speak your message' })).toBeNull();
  },
};

/**
 * A recognizer with no service behind it, and no transcription on the server: the first try
 * says so plainly and the microphone is no longer offered (not even in the next chat).
 */
export const RecognitionWithoutService: Story = {
  parameters: { app: { path: room, signedIn: true } },
  beforeEach: () => withRecognition(ServicelessRecognition),
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Speak your message' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      'Speech recognition is not available in this browser right now.',
    );
    await expect(canvas.queryByRole('button', { name: 'Speak your message' })).toBeNull();
    await expect(canvas.getByRole('textbox', { name: 'Message' })).toBeVisible();
  },
};
