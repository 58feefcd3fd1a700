import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ChatBubble } from './chat-bubble';
import { ChatComposer } from './chat-composer';
import { IconButton } from '../controls/button';
import { CloseIcon } from '../controls/icons';
import { styled } from '../theme/stitches.config';

const Column = styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$3',
  width: 'min(640px, 100vw)',
  padding: '$3',
});

const meta = { title: 'Chat', parameters: { layout: 'fullscreen' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Conversation: Story = {
  render: () => (
    <Column>
      <ChatBubble
        role="mate"
        speaker="Lyra"
        content={"*Lyra looks up and smiles.* Oh, it's you. **Come in** — the stacks like you."}
      />
      <ChatBubble
        role="user"
        speaker="You"
        content="I brought the map you asked about."
        edited
        actions={<IconButton label="Delete message" icon={<CloseIcon />} size="small" />}
      />
      <ChatBubble
        role="mate"
        speaker="Lyra"
        content="Show me. *Slowly*"
        streaming
        status="partial"
      />
    </Column>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Come in').tagName).toBe('STRONG');
    await expect(canvas.getByText('Lyra looks up and smiles.').tagName).toBe('EM');
    await expect(canvas.getAllByLabelText('Lyra says')).toHaveLength(2);
    await expect(canvas.getByText('edited')).toBeVisible();
    // Still streaming: no "cut off" note yet.
    await expect(canvas.queryByText('This reply was cut off.')).toBeNull();
  },
};

export const PartialAndFailed: Story = {
  render: () => (
    <Column>
      <ChatBubble
        role="mate"
        speaker="Kai"
        content="Well, the thing about the rain is"
        status="partial"
      />
      <ChatBubble role="mate" speaker="Kai" content="" status="error" />
    </Column>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('This reply was cut off.')).toBeVisible();
    await expect(canvas.getByText('This reply failed.')).toBeVisible();
  },
};

/** A message holding HTML shows it as text: nothing in it ever runs. */
export const HtmlIsNotRendered: Story = {
  render: () => (
    <Column>
      <ChatBubble
        role="mate"
        speaker="Mallory"
        content={
          'Look: <img src="x" onerror="window.__pwned = true"> <script>window.__pwned = true</script> [link](javascript:alert(1))'
        }
      />
    </Column>
  ),
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('img')).toBeNull();
    await expect(canvasElement.querySelector('script')).toBeNull();
    await expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
    const link = within(canvasElement).queryByRole('link', { name: 'link' });
    await expect(link?.getAttribute('href') ?? '').not.toMatch(/^javascript:/);
  },
};

export const Composer: StoryObj<typeof ChatComposer> = {
  render: (args) => (
    <Column>
      <ChatComposer {...args} />
    </Column>
  ),
  args: { onSend: fn(), onInspire: fn() },
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

export const ComposerStreaming: StoryObj<typeof ChatComposer> = {
  render: (args) => (
    <Column>
      <ChatComposer {...args} />
    </Column>
  ),
  args: {
    onSend: fn(),
    onStop: fn(),
    streaming: true,
    suggestions: ['Tell me more.', 'Why the lighthouse?'],
  },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Wait{Enter}');
    await expect(args.onSend).not.toHaveBeenCalled();
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
