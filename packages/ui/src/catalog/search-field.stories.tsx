import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { SearchField } from './search-field';
import { styled } from '../theme/stitches.config';

const Frame = styled('div', { width: 'min(720px, 100vw)', padding: '$3' });
const HOT_WORDS = ['vampire', 'detective', 'space captain'];
const meta = {
  title: 'Catalog/SearchField',
  component: SearchField,
  tags: ['autodocs'],
  args: { value: '', onValueChange: fn(), hotWords: HOT_WORDS },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          'The search box of the search page, with the words people searched for lately under it; pressing one searches for it.',
      },
    },
  },
} satisfies Meta<typeof SearchField>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const WithAQuery: Story = { args: { value: 'lighthouse' } };
export const WithoutPopularSearches: Story = { args: { hotWords: undefined } };

function Searching() {
  const [value, setValue] = useState('');
  return <SearchField value={value} onValueChange={setValue} hotWords={HOT_WORDS} />;
}

/** Pressing "detective" fills the box; then a typed word replaces it. */
export const PickAPopularSearchThenType: Story = {
  tags: ['!autodocs'],
  render: () => <Searching />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const box = within(canvas.getByRole('search')).getByRole('searchbox', { name: 'Search mates' });
    await userEvent.click(
      within(canvas.getByRole('group', { name: 'Popular searches' })).getByRole('button', {
        name: 'detective',
      }),
    );
    await expect(box).toHaveValue('detective');
    await userEvent.clear(box);
    await userEvent.type(box, 'lighthouse');
    await expect(box).toHaveValue('lighthouse');
  },
};
