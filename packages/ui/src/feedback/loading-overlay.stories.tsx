import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { LoadingOverlay, Spinner } from './loading-overlay';
import { Text } from '../layout/primitives';
import { styled } from '../theme/stitches.config';

const Card = styled('div', {
  position: 'relative',
  width: '320px',
  height: '200px',
  padding: '$4',
  borderRadius: '$3',
  backgroundColor: '$surface',
});

const meta = {
  title: 'Feedback/LoadingOverlay',
  component: LoadingOverlay,
  subcomponents: { Spinner },
  tags: ['autodocs'],
  decorators: [
    (Story) => (
      <Card>
        <Text>Signing you in</Text>
        {Story()}
      </Card>
    ),
  ],
  parameters: {
    docs: {
      description: {
        component:
          '`LoadingOverlay` covers its nearest positioned parent with a spinner and "Please wait..." while an action runs (signing in). `Spinner` alone marks a smaller part as loading; its `label` is what screen readers hear.',
      },
    },
  },
} satisfies Meta<typeof LoadingOverlay>;
export default meta;
type Story = StoryObj<typeof meta>;

export const PleaseWait: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Please wait...');
  },
};
export const OtherText: Story = { args: { text: 'Drawing your mate...' } };
export const SpinnerAlone: StoryObj<typeof Spinner> = {
  decorators: [(Story) => Story()],
  render: () => <Spinner label="Loading mates" />,
};
