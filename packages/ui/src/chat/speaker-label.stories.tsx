import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { createMateSummaryFixture } from '@mates/api-client/msw';
import { SpeakerLabel } from './speaker-label';
import { ChatBubble } from './chat-bubble';
import { styled } from '../theme/stitches.config';

const Column = styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$3',
  width: 'min(640px, 100vw)',
  padding: '$3',
});
const LYRA = createMateSummaryFixture({}, 0);
const KAI = createMateSummaryFixture({}, 1);

const meta = {
  title: 'Chat/SpeakerLabel',
  component: SpeakerLabel,
  tags: ['autodocs'],
  args: { name: LYRA.name, src: LYRA.avatar },
  decorators: [(Story) => <Column>{Story()}</Column>],
  parameters: {
    layout: 'fullscreen',
    docs: {
      description: {
        component:
          "Who wrote a reply in a group chat: a small portrait and the mate's name over its bubble (`ChatBubble`'s `label`). A `note` after the name says more: that the mate left the group, that it is muted, that it is writing.",
      },
    },
  },
} satisfies Meta<typeof SpeakerLabel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The name and portrait alone. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText(LYRA.name)).toBeVisible();
  },
};
/** A mate without a portrait: its initials. */
export const Initials: Story = {
  args: { name: 'Ada Lovelace', src: null },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Ada Lovelace')).toBeVisible();
  },
};
/** A mate that left the group: its past replies keep its name, with a note. */
export const LeftTheGroup: Story = {
  args: { note: 'left the group' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('· left the group')).toBeVisible();
  },
};
/** Over the bubbles of a group chat, one reply still arriving. */
export const OverBubbles: Story = {
  render: (args) => (
    <>
      <ChatBubble
        role="mate"
        speaker={LYRA.name}
        label={<SpeakerLabel {...args} />}
        content="*Raises a mug.* Look who braved the storm!"
      />
      <ChatBubble role="user" speaker="You" content="Evening, all. Is the stew ready yet?" />
      <ChatBubble
        role="mate"
        speaker={KAI.name}
        label={<SpeakerLabel name={KAI.name} src={KAI.avatar} note="writing…" />}
        content="*Wipes hands on an apron.* Five more"
        streaming
      />
    </>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const kai = canvas.getByRole('article', { name: `${KAI.name} says` });
    await expect(within(kai).getByText(KAI.name)).toBeVisible();
    await expect(within(kai).getByText('· writing…')).toBeVisible();
  },
};
