import { Container, Heading, Stack, Text } from '@mates/ui';

/** What a screen that is not built yet will hold (issue #7's remaining screens). */
export function PlannedPage({ screen }: { screen: string }) {
  return (
    <Container>
      <Stack gap={3}>
        <Heading as="h1" size={3}>
          {screen.charAt(0).toUpperCase() + screen.slice(1)}
        </Heading>
        <Text tone="muted">This page is not built yet. It will hold the {screen} of Mates.</Text>
      </Stack>
    </Container>
  );
}
