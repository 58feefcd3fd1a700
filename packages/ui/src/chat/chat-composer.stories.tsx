import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ChatComposer, type ChatComposerProps } from './chat-composer';
import { IconButton } from '../controls/button';
import { styled } from '../theme/stitches.config';

const Column = styled('div', { width: 'min(640px, 100vw)', padding: '$3' });

const meta = {
  title: 'Chat/ChatComposer',
  component: ChatComposer,
  tags: ['autodocs'],
  args: { onSend: fn(), onInspire: fn(), onStop: fn() },
  decorators: [(Story) => <Column>{Story()}</Column>],
  parameters: {
    layout: 'fullscreen',
    docs: {
      description: {
        component:
          'Where the person writes: Enter sends, Shift+Enter starts a new line. While a reply is being written (`streaming`) typing still works but sending waits, and a Stop button shows. "Ideas" asks for suggested replies, shown as chips above the box.',
      },
    },
  },
} satisfies Meta<typeof ChatComposer>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const WithSuggestions: Story = {
  args: { suggestions: ['Tell me more.', 'Why the lighthouse?'] },
};
export const WhileAReplyStreams: Story = {
  args: { streaming: true, suggestions: ['Tell me more.', 'Why the lighthouse?'] },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Stop' })).toBeVisible();
  },
};

/** Shift+Enter adds a line, Enter sends and clears; an empty Enter sends nothing; Ideas asks. */
export const WriteAndSend: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const box = canvas.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'First line{Shift>}{Enter}{/Shift}second line');
    await expect(box).toHaveValue('First line\nsecond line');
    await expect(args.onSend).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    await expect(args.onSend).toHaveBeenCalledWith('First line\nsecond line');
    await expect(box).toHaveValue('');
    await userEvent.keyboard('{Enter}');
    await expect(args.onSend).toHaveBeenCalledOnce();
    await userEvent.click(canvas.getByRole('button', { name: 'Ideas' }));
    await expect(args.onInspire).toHaveBeenCalledOnce();
  },
};

/** While streaming, Enter does not send; Stop stops; a suggestion fills the box. */
export const StopAndPickASuggestion: Story = {
  tags: ['!autodocs'],
  args: WhileAReplyStreams.args,
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    // The status is in the page, empty, before it has something to say: a live region added
    // with its words already in it is not read out by every screen reader.
    const status = canvas.getByRole('status');
    await expect(status).toBeEmptyDOMElement();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Wait{Enter}');
    await expect(args.onSend).not.toHaveBeenCalled();
    // Said, politely: the message is kept in the box, to send once the reply ends (or Stop).
    // Found from outside: "waits until the reply is written" read as a promise to send it then.
    await expect(canvas.getByRole('status')).toBe(status);
    await expect(status).toHaveTextContent(
      'A reply is still being written: send your message once it ends, or stop the reply first.',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await expect(args.onStop).toHaveBeenCalledOnce();
    await userEvent.click(
      within(canvas.getByRole('group', { name: 'Suggested replies' })).getByRole('button', {
        name: 'Why the lighthouse?',
      }),
    );
    await expect(canvas.getByRole('textbox', { name: 'Message' })).toHaveValue(
      'Why the lighthouse?',
    );
  },
};

const MicIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
  </svg>
);

/**
 * The page keeps the text (`value`, `onValueChange`) and adds a tool beside the box (`tools`):
 * here a microphone that adds "what was heard" after what was typed, as dictation does.
 */
function KeptByThePage(args: ChatComposerProps) {
  const [text, setText] = useState(args.value ?? '');
  return (
    <ChatComposer
      {...args}
      value={text}
      onValueChange={(next) => {
        setText(next);
        args.onValueChange?.(next);
      }}
      tools={
        <IconButton
          label="Speak your message"
          icon={<MicIcon />}
          variant="soft"
          onClick={() => setText((typed) => `${typed.trimEnd()} tell me about the sea`.trim())}
        />
      }
    />
  );
}

/** A tool beside the box, before Send (a microphone here). */
export const WithATool: Story = {
  args: {
    tools: <IconButton label="Speak your message" icon={<MicIcon />} variant="soft" />,
  },
};

/**
 * Text kept by the page: typing reports each change, a tool can add to the box, sending sends
 * the page's text and reports the box cleared.
 */
export const TextKeptByThePage: Story = {
  tags: ['!autodocs'],
  args: { value: 'Hello.', onValueChange: fn() },
  render: (args) => <KeptByThePage {...args} />,
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const box = canvas.getByRole('textbox', { name: 'Message' });
    await expect(box).toHaveValue('Hello.');
    await userEvent.type(box, '!');
    await expect(args.onValueChange).toHaveBeenLastCalledWith('Hello.!');
    await userEvent.click(canvas.getByRole('button', { name: 'Speak your message' }));
    await expect(box).toHaveValue('Hello.! tell me about the sea');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expect(args.onSend).toHaveBeenCalledWith('Hello.! tell me about the sea');
    await expect(args.onValueChange).toHaveBeenLastCalledWith('');
    await expect(box).toHaveValue('');
  },
};

/** `autoFocus`: the message box has the focus as soon as the composer appears (a chat just opened). */
export const FocusedWhenItAppears: Story = {
  tags: ['!autodocs'],
  args: { autoFocus: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('textbox', { name: 'Message' })).toHaveFocus();
  },
};

/**
 * A message kept from an earlier visit is in the box as it appears: the focus comes after it,
 * so typing goes on where the person stopped.
 */
export const FocusedAfterAKeptMessage: Story = {
  tags: ['!autodocs'],
  args: { autoFocus: true, value: 'Half a thought about the lighthouse,', onValueChange: fn() },
  render: (args) => <KeptByThePage {...args} />,
  play: async ({ canvasElement }) => {
    const box = within(canvasElement).getByRole('textbox', { name: 'Message' });
    await expect(box).toHaveFocus();
    // Typed where the caret is, without a click first.
    await userEvent.keyboard(' and the keeper');
    await expect(box).toHaveValue('Half a thought about the lighthouse, and the keeper');
  },
};
