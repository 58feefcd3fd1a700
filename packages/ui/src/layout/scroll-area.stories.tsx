import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ScrollArea } from './scroll-area';
import { Link } from './more-layout';
import { styled } from '../theme/stitches.config';

const Tall = styled('div', { height: '200px', width: '320px', border: '1px solid $border' });
const lines = Array.from({ length: 30 }, (_, index) => (
  <p key={index}>
    Line {index + 1} <Link href="#top">top</Link>
  </p>
));

const meta = {
  title: 'Layout/ScrollArea',
  component: ScrollArea,
  tags: ['autodocs'],
  args: { label: 'Main content', children: lines },
  decorators: [(Story) => <Tall>{Story()}</Tall>],
  parameters: {
    docs: {
      description: {
        component:
          "A named region that scrolls on its own: the app's main container between header and footer. It takes keyboard focus so the content can be scrolled with the arrow keys.",
      },
    },
  },
} satisfies Meta<typeof ScrollArea>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AtTheTop: Story = {};

/** Scrolls down, then back to the top. */
export const ScrollDownAndBack: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement }) => {
    const region = within(canvasElement).getByRole('region', { name: 'Main content' });
    region.scrollTop = 400;
    await expect(region.scrollTop).toBeGreaterThan(0);
    region.scrollTo({ top: 0 });
    await expect(region.scrollTop).toBe(0);
  },
};
