import type { Meta, StoryObj } from '@storybook/react-vite';
import { I18nextProvider } from 'react-i18next';
import { QueryClientProvider } from '@tanstack/react-query';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { CallServerMessage } from '@mates/api-client';
import {
  createBenefitsFixture,
  createCallTicketFixture,
  createMateSummaryFixture,
  createRoomGroupFixture,
  mockEndpoint,
} from '@mates/api-client/msw';
import type {
  CallConnectionHandlers,
  CallMicrophone,
  CallMicrophoneHandlers,
} from '@mates/state-machines';
import { ServicesProvider } from '../../lib/services-context';
import { api, createStoryApp, type StoryApp } from '../../testing/story-app';
import { loadScreenTexts } from '../../i18n/i18n';
import { CallDialog, type CallEffects, type CallPeer } from './call-view';

const LYRA = createMateSummaryFixture({}, 0);
const PEER: CallPeer = { name: LYRA.name, avatar: LYRA.avatar };

/** What a story's script can do: play the server and the microphone. */
interface Stage {
  server: (message: CallServerMessage) => void;
  sentence: (index: number, text: string, messageId?: string) => void;
  close: () => void;
  mic: CallMicrophoneHandlers;
}

/** The call's effects, played by `script` once the socket and the microphone are there. */
function scripted(
  script: (stage: Stage) => void,
  options: { start?: 'never' | 'ok'; denied?: boolean } = {},
): CallEffects {
  let socket: CallConnectionHandlers | undefined;
  let mic: CallMicrophoneHandlers | undefined;
  let ran = false;
  const run = () => {
    if (!socket || !mic || ran) return;
    ran = true;
    const handlers = socket;
    script({
      server: handlers.onMessage,
      sentence: (index, text, messageId = 'r1') =>
        handlers.onSentence(
          { type: 'sentence', messageId, index, text, mimeType: 'audio/wav' },
          new ArrayBuffer(8),
        ),
      close: () => handlers.onClose({ code: 1006, reason: '', wasClean: false }),
      mic,
    });
  };
  return {
    start: () =>
      options.start === 'never'
        ? new Promise(() => {})
        : Promise.resolve(createCallTicketFixture()),
    connect: (_ticket, handlers) => {
      socket = handlers;
      setTimeout(run, 0);
      return { send: () => {}, sendUtterance: () => {}, close: () => {} };
    },
    microphone: {
      start: (handlers) => {
        mic = handlers;
        setTimeout(() => {
          if (options.denied) handlers.onDenied(new DOMException('denied', 'NotAllowedError'));
          else run();
        }, 0);
        return { setMuted: () => {}, stop: () => {} };
      },
    },
    // The clips play until the story ends: the mate is caught speaking.
    player: { play: () => () => {} },
  };
}

const ready = (stage: Stage) => {
  stage.server({ type: 'ready', callId: 'call-1', roomId: 'room-1', transcriber: 'server' });
  stage.mic.onReady();
};
const asked = (stage: Stage) => {
  ready(stage);
  stage.mic.onSpeechStart();
  stage.mic.onSpeechEnd(new Float32Array(1600));
  stage.server({ type: 'transcript', messageId: 'u1', text: 'Tell me about your day.' });
};
const speaking = (stage: Stage, speakerId?: string) => {
  asked(stage);
  stage.server({ type: 'reply-start', messageId: 'r1', ...(speakerId ? { speakerId } : {}) });
  stage.server({ type: 'reply-text', messageId: 'r1', text: 'Oh, it was lovely.' });
  stage.sentence(0, 'Oh, it was lovely.');
  stage.server({ type: 'reply-text', messageId: 'r1', text: ' I spent the morning by the lake.' });
  stage.sentence(1, 'I spent the morning by the lake.');
};

interface Args {
  effects: CallEffects;
  peer?: CallPeer;
  autoStart?: boolean;
}

const meta = {
  title: 'Screens/Chat/Call',
  parameters: {
    layout: 'fullscreen',
    docs: { source: { type: 'code' } },
    msw: { handlers: api() },
  },
  loaders: [
    async () => {
      const app = await createStoryApp({ path: '/', signedIn: true });
      // The call screen's texts ship with the screens' (the first screen has its own).
      await loadScreenTexts();
      return { app };
    },
  ],
  render: (args, { loaded }) => {
    const app = loaded.app as StoryApp;
    return (
      <ServicesProvider services={app.services}>
        <I18nextProvider i18n={app.services.i18n}>
          <QueryClientProvider client={app.services.queries}>
            <CallDialog
              roomId="room-1"
              peer={args.peer ?? PEER}
              open
              onOpenChange={() => {}}
              effects={args.effects}
              autoStart={args.autoStart ?? true}
            />
          </QueryClientProvider>
        </I18nextProvider>
      </ServicesProvider>
    );
  },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const dialog = (canvasElement: HTMLElement) =>
  within(canvasElement.ownerDocument.body).findByRole('dialog', {
    name: `Call with ${LYRA.name}`,
  });
const status = async (canvasElement: HTMLElement, text: string) => {
  const body = within(canvasElement.ownerDocument.body);
  await waitFor(() => expect(body.getByRole('status')).toHaveTextContent(text));
};

/** Before the call: what it costs, and Start call. */
export const BeforeTheCall: Story = {
  args: { effects: scripted(ready), autoStart: false },
  play: async ({ canvasElement }) => {
    const view = within(await dialog(canvasElement));
    // The dialog fades in.
    await waitFor(() => expect(view.getByText(/Each reply in a call costs 1 chat/)).toBeVisible());
    await userEvent.click(view.getByRole('button', { name: 'Start call' }));
    await status(canvasElement, 'Listening');
  },
};
const chosenPauses: number[] = [];
/**
 * The pause that ends the person's turn, chosen before the call by keyboard: the microphone is
 * made with it, and this device remembers it for the next call.
 */
export const ChooseALongerPause: Story = {
  args: {
    effects: (() => {
      const effects = scripted(ready);
      const microphone = effects.microphone as CallMicrophone;
      return {
        ...effects,
        microphone: ({ pauseMs }: { pauseMs: number }) => {
          chosenPauses.push(pauseMs);
          return microphone;
        },
      };
    })(),
    autoStart: false,
  },
  loaders: [() => void (chosenPauses.length = 0)],
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const view = within(await dialog(canvasElement));
    const pause = await view.findByRole('combobox', { name: 'Pause that ends your turn' });
    await expect(pause).toHaveTextContent('Normal (0.7 seconds)');
    pause.focus();
    await userEvent.keyboard('{Enter}');
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(
      await body.findByRole('option', { name: 'Long (1.5 seconds): time to think mid-sentence' }),
    );
    await waitFor(() =>
      expect(pause).toHaveTextContent('Long (1.5 seconds): time to think mid-sentence'),
    );
    await expect(app.services.storage.getItem('mates.callPause')).toBe('long');
    await userEvent.click(view.getByRole('button', { name: 'Start call' }));
    await status(canvasElement, 'Listening');
    await expect(chosenPauses).toEqual([1500]);
  },
};
/** Connecting: the ticket has not come yet; Mute waits. */
export const Connecting: Story = {
  args: { effects: scripted(() => {}, { start: 'never' }) },
  play: async ({ canvasElement }) => {
    await status(canvasElement, 'Connecting…');
    const view = within(await dialog(canvasElement));
    await expect(view.getByRole('button', { name: 'Mute' })).toBeDisabled();
  },
};
/** Listening: the person may speak. */
export const Listening: Story = {
  args: { effects: scripted(ready) },
  play: async ({ canvasElement }) => status(canvasElement, 'Listening'),
};
/** The person speaks. */
export const PersonSpeaking: Story = {
  args: {
    effects: scripted((stage) => {
      ready(stage);
      stage.mic.onSpeechStart();
    }),
  },
  play: async ({ canvasElement }) => {
    await status(canvasElement, 'Listening…');
    // The stage shows the speaker once the machine has taken the speech's start, and the label
    // is visible a moment after it is there (found and not yet visible in a loaded clean-clone
    // run): both waited for.
    const view = within(await dialog(canvasElement));
    await waitFor(() => expect(view.getByText("You're speaking")).toBeVisible(), {
      timeout: 5_000,
    });
  },
};
/** Transcribing: the utterance was sent. */
export const Transcribing: Story = {
  args: {
    effects: scripted((stage) => {
      ready(stage);
      stage.mic.onSpeechStart();
      stage.mic.onSpeechEnd(new Float32Array(1600));
    }),
  },
  play: async ({ canvasElement }) => status(canvasElement, 'Writing down what you said…'),
};
/** The mate thinks: the person's words are in the captions. */
export const Thinking: Story = {
  args: { effects: scripted(asked) },
  play: async ({ canvasElement }) => {
    await status(canvasElement, `${LYRA.name} is thinking…`);
    const captions = within(await dialog(canvasElement)).getByRole('log', {
      name: 'Live captions',
    });
    await expect(captions).toHaveTextContent('You: Tell me about your day.');
  },
};
/** The mate speaks, with live captions of both sides. */
export const MateSpeaking: Story = {
  args: { effects: scripted((stage) => speaking(stage)) },
  play: async ({ canvasElement }) => {
    await status(canvasElement, `${LYRA.name} is speaking`);
    const captions = within(await dialog(canvasElement)).getByRole('log');
    await expect(captions).toHaveTextContent('Oh, it was lovely. I spent the morning by the lake.');
  },
};
/** Barge-in: the person spoke over the mate; the reply is saved cut, and marked. */
export const BargeIn: Story = {
  args: {
    effects: scripted((stage) => {
      speaking(stage);
      stage.mic.onSpeechStart();
      stage.server({ type: 'reply-end', messageId: 'r1', text: 'Oh, it was lovely.', cut: true });
    }),
  },
  play: async ({ canvasElement }) => {
    await status(canvasElement, 'Listening…');
    const view = within(await dialog(canvasElement));
    await waitFor(() => expect(view.getByText('(cut)')).toBeVisible());
  },
};
/** Muted: the toggle pressed, a badge; pressing again unmutes. */
export const Muted: Story = {
  args: { effects: scripted(ready) },
  play: async ({ canvasElement }) => {
    await status(canvasElement, 'Listening');
    const view = within(await dialog(canvasElement));
    const mute = view.getByRole('button', { name: 'Mute' });
    await userEvent.click(mute);
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(view.getByText('Muted')).toBeVisible());
  },
};
/** The microphone is blocked: said, with how to allow it. */
export const MicrophoneDenied: Story = {
  args: { effects: scripted(() => {}, { denied: true }) },
  play: async ({ canvasElement }) => {
    await status(canvasElement, 'The microphone is blocked');
    const view = within(await dialog(canvasElement));
    // Close in the corner, and Close under the call.
    await expect(view.getAllByRole('button', { name: 'Close' })).toHaveLength(2);
  },
};
/** The connection dropped mid-call. */
export const Failed: Story = {
  args: {
    effects: scripted((stage) => {
      speaking(stage);
      stage.close();
    }),
  },
  play: async ({ canvasElement }) => status(canvasElement, 'The call was cut off'),
};
/** Hung up: the call ended; the captions stay to read. */
export const Ended: Story = {
  args: { effects: scripted((stage) => speaking(stage)) },
  play: async ({ canvasElement }) => {
    await status(canvasElement, `${LYRA.name} is speaking`);
    const view = within(await dialog(canvasElement));
    await userEvent.click(view.getByRole('button', { name: 'Hang up' }));
    await status(canvasElement, 'Call ended');
    await expect(view.getByRole('log')).toHaveTextContent('Tell me about your day.');
  },
};
/** The chats the server says the person has, as the story's call spends them. */
let serverChats = 20;
/**
 * Review: each reply of a call costs a chat, yet the chats the page shows (the header, the price
 * before the next call) stayed as they were before the call; they are read again once it ends.
 */
export const EndedChatsReadAgain: Story = {
  args: { effects: scripted((stage) => speaking(stage)) },
  parameters: {
    msw: {
      handlers: api(
        mockEndpoint('/user/benefits', () => createBenefitsFixture({ chats: serverChats })),
      ),
    },
  },
  loaders: [() => void (serverChats = 20)],
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const chats = () => {
      const context = app.services.store.getSnapshot().context;
      return 'userBenefits' in context ? context.userBenefits.chats : undefined;
    };
    await status(canvasElement, `${LYRA.name} is speaking`);
    await waitFor(() => expect(chats()).toBe(20));
    // The call's replies are charged on the server.
    serverChats = 17;
    const view = within(await dialog(canvasElement));
    await userEvent.click(view.getByRole('button', { name: 'Hang up' }));
    await status(canvasElement, 'Call ended');
    await waitFor(() => expect(chats()).toBe(17));
  },
};
/** Ended by the server: the person started a call elsewhere. */
export const EndedElsewhere: Story = {
  args: {
    effects: scripted((stage) => {
      ready(stage);
      stage.server({ type: 'ended', reason: 'replaced' });
    }),
  },
  play: async ({ canvasElement }) =>
    status(canvasElement, 'Call ended: you started a call elsewhere'),
};
/** A group call: the member speaking is shown and named. */
export const GroupSpeaking: Story = {
  args: (() => {
    const group = createRoomGroupFixture();
    const member = group.members[1]!.mate;
    return {
      peer: { name: group.name, avatar: LYRA.avatar, group },
      effects: scripted((stage) => speaking(stage, member.mateId)),
    };
  })(),
  play: async ({ canvasElement, args }) => {
    const member = args.peer!.group!.members[1]!.mate;
    await status(canvasElement, `${member.name} is speaking`);
  },
};
/** On a phone. */
export const Phone: Story = {
  args: { effects: scripted((stage) => speaking(stage)) },
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  play: async ({ canvasElement }) => status(canvasElement, `${LYRA.name} is speaking`),
};
