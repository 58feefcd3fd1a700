import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Heading, Stack, Text } from './primitives';
import { Link } from './more-layout';

const meta = {
  title: 'Layout/Text',
  component: Text,
  subcomponents: { Heading, Link },
  tags: ['autodocs'],
  args: { children: 'An elven archivist who remembers every story ever told.' },
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          'Body text in four sizes and four tones (`muted` for secondary lines, `danger` for problems, `accent` for emphasis). `Heading` sets titles: choose its level with `as` (`h1`–`h4`, following the page outline) and its look with `size`. `Link` is a text link.',
      },
    },
  },
} satisfies Meta<typeof Text>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Headings at every size, body text in every size, tone and weight. */
export const Variants: Story = {
  render: () => (
    <Stack gap={3}>
      <Heading as="h1" size={4}>
        Discover mates (heading 4)
      </Heading>
      <Heading as="h2" size={3}>
        Trending this week (heading 3)
      </Heading>
      <Heading as="h3" size={2}>
        Fantasy (heading 2)
      </Heading>
      <Heading as="h4" size={1}>
        Reviews (heading 1)
      </Heading>
      {([4, 3, 2, 1] as const).map((size) => (
        <Text key={size} size={size}>
          Text size {size}
        </Text>
      ))}
      <Text tone="muted">Muted</Text>
      <Text tone="accent">Accent</Text>
      <Text tone="danger">Danger: something went wrong.</Text>
      <Text weight="medium">Medium weight</Text>
      <Text weight="bold">Bold weight</Text>
      <Link href="#/faq">A text link</Link>
    </Stack>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1 })).toHaveTextContent('Discover mates');
    await expect(canvas.getByRole('heading', { level: 4 })).toHaveTextContent('Reviews');
  },
};
export const Body: Story = {};
export const Muted: Story = { args: { tone: 'muted', size: 2 } };
export const Danger: Story = { args: { tone: 'danger', children: 'Something went wrong.' } };
export const Headings: StoryObj<typeof Heading> = {
  render: () => (
    <Heading as="h1" size={4}>
      Discover mates
    </Heading>
  ),
};
export const TextLink: StoryObj<typeof Link> = {
  render: () => <Link href="#/faq">Frequently asked questions</Link>,
};
