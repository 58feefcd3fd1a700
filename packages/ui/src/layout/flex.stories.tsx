import type { Meta, StoryObj } from '@storybook/react-vite';
import { Box, Container, Flex, Stack, Text } from './primitives';
import { Button } from '../controls/button';
import { styled } from '../theme/stitches.config';

const Swatch = styled('div', {
  padding: '$3',
  borderRadius: '$2',
  backgroundColor: '$surfaceRaised',
  color: '$text',
});
const swatches = ['One', 'Two', 'Three'].map((word) => <Swatch key={word}>{word}</Swatch>);

const meta = {
  title: 'Layout/Flex',
  component: Flex,
  subcomponents: { Stack, Box, Container },
  tags: ['autodocs'],
  args: { gap: 3, children: swatches },
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          'Lays children out in a row or a column with a gap from the space scale (`gap={3}` is 12 px). `Stack` is a column with an even gap; `Box` is a plain block; `Container` centres the page content at up to 1200 px with side padding.',
      },
    },
  },
} satisfies Meta<typeof Flex>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A row, a column, spaced between, and the gaps of the scale. */
export const Variants: Story = {
  render: () => (
    <Stack gap={5}>
      <Flex gap={3}>{swatches}</Flex>
      <Flex direction="column" gap={2}>
        {swatches}
      </Flex>
      <Flex justify="between" align="center">
        <Text weight="bold">Spaced between</Text>
        <Button size="small">Action</Button>
      </Flex>
      {([1, 3, 5] as const).map((gap) => (
        <Flex key={gap} gap={gap}>
          {swatches}
        </Flex>
      ))}
    </Stack>
  ),
};
export const Row: Story = {};
export const Column: Story = { args: { direction: 'column' } };
export const SpacedBetween: Story = { args: { justify: 'between' } };
export const StackOfThree: StoryObj<typeof Stack> = { render: () => <Stack>{swatches}</Stack> };
export const PageContainer: StoryObj<typeof Container> = {
  parameters: { layout: 'fullscreen' },
  render: () => (
    <Container>
      <Box>
        <Text>Content centred at up to 1200 px, with padding on the sides.</Text>
      </Box>
    </Container>
  ),
};
