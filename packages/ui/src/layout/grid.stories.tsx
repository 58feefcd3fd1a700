import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Card, Grid } from './more-layout';
import { Heading, Stack, Text } from './primitives';

const personas = [
  ['Traveller', 'A quiet cartographer who asks too many questions.'],
  ['Captain', 'Commands a small airship; laughs easily.'],
  ['Scholar', 'Reads everything twice.'],
].map(([name, about]) => (
  <Card key={name}>
    <Heading as="h3" size={1}>
      {name}
    </Heading>
    <Text tone="muted">{about}</Text>
  </Card>
));

const meta = {
  title: 'Layout/Grid',
  component: Grid,
  subcomponents: { Card },
  tags: ['autodocs'],
  args: { columns: 3, children: personas },
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          '`Grid` places children in up to three equal columns on wide screens and one column on phones. `Card` is a raised surface for one item (a persona, a package); render it `as="li"` inside a list.',
      },
    },
  },
} satisfies Meta<typeof Grid>;
export default meta;
type Story = StoryObj<typeof meta>;

/** One, two and three columns. */
export const Variants: Story = {
  render: () => (
    <Stack gap={5}>
      {([1, 2, 3] as const).map((columns) => (
        <Grid key={columns} columns={columns}>
          {personas}
        </Grid>
      ))}
    </Stack>
  ),
};
export const ThreeColumns: Story = {};
export const TwoColumns: Story = { args: { columns: 2 } };

/** Cards as the items of a list. */
export const CardList: StoryObj<typeof Card> = {
  render: () => (
    <Stack as="ul" gap={3} style={{ listStyle: 'none', padding: 0 }}>
      <Card as="li">
        <Heading as="h3" size={1}>
          Traveller
        </Heading>
        <Text tone="muted">A quiet cartographer who asks too many questions.</Text>
      </Card>
      <Card as="li">
        <Heading as="h3" size={1}>
          Captain
        </Heading>
        <Text tone="muted">Commands a small airship; laughs easily.</Text>
      </Card>
    </Stack>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByRole('listitem')).toHaveLength(2);
  },
};
