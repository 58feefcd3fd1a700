import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Box, Container, Flex, Heading, Stack, Text } from './primitives';
import { VisuallyHidden } from './visually-hidden';
import { Divider } from './divider';
import { Card, Grid, Link } from './more-layout';
import { Button } from '../controls/button';
import { styled } from '../theme/stitches.config';

const Swatch = styled('div', {
  padding: '$3',
  borderRadius: '$2',
  backgroundColor: '$surfaceRaised',
});
const meta = { title: 'Layout', parameters: { layout: 'padded' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** Headings at every size and level, and body text in every tone. */
export const Typography: Story = {
  render: () => (
    <Stack gap={3}>
      <Heading as="h1" size={4}>
        Discover mates
      </Heading>
      <Heading as="h2" size={3}>
        Trending this week
      </Heading>
      <Heading as="h3" size={2}>
        Fantasy
      </Heading>
      <Heading as="h4" size={1}>
        Reviews
      </Heading>
      <Text>Default body text.</Text>
      <Text tone="muted" size={2}>
        Muted, small.
      </Text>
      <Text tone="accent" weight="bold">
        Accent, bold.
      </Text>
      <Text tone="danger">Something went wrong.</Text>
      <Link href="#/faq">A text link</Link>
    </Stack>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1, name: 'Discover mates' })).toBeVisible();
    await expect(canvas.getByRole('heading', { level: 4, name: 'Reviews' })).toBeVisible();
  },
};

export const Structure: Story = {
  render: () => (
    <Container>
      <Stack gap={4}>
        <Flex gap={2} justify="between" align="center">
          <Text weight="bold">Flex, spaced between</Text>
          <Button size="small">Action</Button>
        </Flex>
        <Divider />
        <Grid columns={3}>
          <Swatch>One</Swatch>
          <Swatch>Two</Swatch>
          <Swatch>Three</Swatch>
        </Grid>
        <Box>
          A box with <VisuallyHidden>text only screen readers hear,</VisuallyHidden> hidden words.
        </Box>
      </Stack>
    </Container>
  ),
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByText('text only screen readers hear,'),
    ).toBeInTheDocument();
  },
};

export const Cards: Story = {
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
