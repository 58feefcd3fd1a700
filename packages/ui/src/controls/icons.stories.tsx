import type { Meta, StoryObj } from '@storybook/react-vite';
import { CloseIcon, EyeIcon, EyeOffIcon } from './icons';
import { Flex } from '../layout/primitives';

const meta = {
  title: 'Controls/Icons',
  component: CloseIcon,
  subcomponents: { EyeIcon, EyeOffIcon },
  tags: ['autodocs'],
  parameters: {
    docs: {
      description: {
        component:
          'The few icons the kit draws with. They are decorative: put them in an `IconButton`, which names the action.',
      },
    },
  },
} satisfies Meta<typeof CloseIcon>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every icon, side by side. */
export const AllIcons: Story = {
  render: () => (
    <Flex gap={4} align="center">
      <CloseIcon />
      <EyeIcon />
      <EyeOffIcon />
    </Flex>
  ),
};
