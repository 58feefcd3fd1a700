import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { ChatBubble } from './chat-bubble';
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

const meta = {
  title: 'Chat/ChatBubble',
  component: ChatBubble,
  tags: ['autodocs'],
  args: {
    role: 'mate',
    speaker: 'Lyra',
    content: "*Lyra looks up and smiles.* Oh, it's you. **Come in** — the stacks like you.",
  },
  decorators: [(Story) => <Column>{Story()}</Column>],
  parameters: {
    layout: 'fullscreen',
    docs: {
      description: {
        component:
          "One message of a chat: the person's on the right, the mate's on the left. The text is Markdown (`*actions*` in italics); raw HTML in it is shown as text, never run. A reply still arriving shows a caret (`streaming`); one cut short says so (`partial`), a failed one too (`error`). `actions` holds the buttons under it.",
      },
    },
  },
} satisfies Meta<typeof ChatBubble>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every role and status, as they look in one conversation. */
export const Variants: Story = {
  render: () => (
    <>
      <ChatBubble role="mate" speaker="Lyra" content="*Lyra looks up.* Complete reply." />
      <ChatBubble
        role="user"
        speaker="You"
        content="A message of yours, edited, with an action."
        edited
        actions={<IconButton label="Delete message" icon={<CloseIcon />} size="small" />}
      />
      <ChatBubble role="mate" speaker="Lyra" content="Still arriving" streaming />
      <ChatBubble role="mate" speaker="Lyra" content="Cut off in the" status="partial" />
      <ChatBubble role="mate" speaker="Lyra" content="" status="error" />
    </>
  ),
};

export const Conversation: Story = {
  render: () => (
    <>
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
      <ChatBubble role="mate" speaker="Lyra" content="Show me. *Slowly*" streaming />
    </>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Come in').tagName).toBe('STRONG');
    await expect(canvas.getByText('Lyra looks up and smiles.').tagName).toBe('EM');
    await expect(canvas.getAllByLabelText('Lyra says')).toHaveLength(2);
    await expect(canvas.getByText('edited')).toBeVisible();
    // Still streaming: no "cut off" note yet, and busy until whole; the others are not.
    await expect(canvas.queryByText('This reply was cut off.')).toBeNull();
    const [whole, arriving] = canvas.getAllByLabelText('Lyra says');
    await expect(whole).not.toHaveAttribute('aria-busy');
    await expect(arriving).toHaveAttribute('aria-busy', 'true');
  },
};

/** Still arriving: a caret, and busy for screen readers until the reply is whole. */
export const Streaming: Story = {
  args: { content: 'Show me. *Slowly*', streaming: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('article', { name: 'Lyra says' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};

export const CutOffAndFailed: Story = {
  render: () => (
    <>
      <ChatBubble
        role="mate"
        speaker="Kai"
        content="Well, the thing about the rain is"
        status="partial"
      />
      <ChatBubble role="mate" speaker="Kai" content="" status="error" />
    </>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('This reply was cut off.')).toBeVisible();
    await expect(canvas.getByText('This reply failed.')).toBeVisible();
  },
};

/** A message holding HTML shows it as text: nothing in it ever runs. */
export const HtmlShownAsText: Story = {
  args: {
    speaker: 'Mallory',
    content:
      'Look: <img src="x" onerror="window.__pwned = true"> <script>window.__pwned = true</script> [link](javascript:alert(1))',
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('img')).toBeNull();
    await expect(canvasElement.querySelector('script')).toBeNull();
    await expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
    const link = within(canvasElement).queryByRole('link', { name: 'link' });
    await expect(link?.getAttribute('href') ?? '').not.toMatch(/^javascript:/);
  },
};

/** A single line break stays a line break; `*actions*` read as actions (in italics). */
export const LinesAndActions: Story = {
  args: {
    content: '*She sets the lantern down.*\nYou came back.\nI knew you would.',
  },
  play: async ({ canvasElement }) => {
    const bubble = within(canvasElement).getByRole('article', { name: 'Lyra says' });
    await expect(bubble.querySelectorAll('br')).toHaveLength(2);
    await expect(within(bubble).getByText('She sets the lantern down.').tagName).toBe('EM');
    await expect(bubble.innerText).toContain('You came back.\nI knew you would.');
  },
};

/**
 * A table, words struck through with two tildes (one, as roleplay writes "hi~", stays) and an
 * address written out, which is a link. A wide table scrolls inside the message.
 */
export const TableStrikeAndLinks: Story = {
  args: {
    content: [
      'Here is the week, as promised~',
      '| Day | Plan | Hours |\n| --- | --- | ---: |\n| Monday | Library shift at the old observatory | 4 |\n| Tuesday | ~~Market~~ Rest | 0 |',
      'The timetable is at https://harbour.example.org/timetable.',
    ].join('\n\n'),
  },
  play: async ({ canvasElement }) => {
    const bubble = within(canvasElement).getByRole('article', { name: 'Lyra says' });
    const table = within(bubble).getByRole('table');
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Day', 'Plan', 'Hours']);
    await expect(within(table).getByText('Market').tagName).toBe('DEL');
    await expect(bubble.textContent).toContain('as promised~');
    await expect(
      within(bubble).getByRole('link', { name: 'https://harbour.example.org/timetable' }),
    ).toHaveAttribute('target', '_blank');
  },
};

/** With the speaker's portrait, and the time it was written: shown on hover and on keyboard focus. */
export const PortraitAndTime: Story = {
  args: {
    avatar: { src: null, name: 'Lyra' },
    time: { iso: '2026-11-24T10:42:00.000Z', label: '10:42' },
    actions: <IconButton label="Delete" icon={<CloseIcon />} size="small" />,
  },
  play: async ({ canvasElement }) => {
    const message = within(canvasElement).getByRole('article', { name: 'Lyra says' });
    const time = message.querySelector('time')!;
    await expect(time).toHaveAttribute('datetime', '2026-11-24T10:42:00.000Z');
    await expect(time).toHaveTextContent('10:42');
    await expect(getComputedStyle(time).opacity).toBe('0');
    within(message).getByRole('button', { name: 'Delete' }).focus();
    await waitFor(() => expect(getComputedStyle(time).opacity).toBe('1'));
    // The portrait is decorative: the message is named by its speaker already.
    await expect(within(message).queryByRole('img')).toBeNull();
  },
};

/** The message a link led to (a memory's source): ringed, and focusable by script, not by Tab. */
export const Highlighted: Story = {
  args: { id: 'message-msg-2', highlighted: true, content: 'I brought the map you asked about.' },
  play: async ({ canvasElement }) => {
    const article = within(canvasElement).getByRole('article', { name: 'Lyra says' });
    await expect(article).toHaveAttribute('id', 'message-msg-2');
    await expect(article).toHaveAttribute('tabindex', '-1');
    article.focus();
    await expect(article).toHaveFocus();
    const bubble = within(article).getByText('I brought the map you asked about.').parentElement!;
    await expect(getComputedStyle(bubble).boxShadow).not.toBe('none');
  },
};
