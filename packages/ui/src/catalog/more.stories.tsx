import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { createPackageFixture } from '@mates/api-client/msw';
import { SearchField } from './search-field';
import { PackageCard } from './package-card';
import { Grid, Link } from '../layout/more-layout';
import { ScrollArea } from '../layout/scroll-area';
import { styled } from '../theme/stitches.config';

const Frame = styled('div', { width: 'min(720px, 100vw)', padding: '$3' });
const Tall = styled('div', { height: '200px', width: '320px', border: '1px solid $border' });
const meta = { title: 'Catalog/More', parameters: { layout: 'padded' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

function Searching() {
  const [value, setValue] = useState('');
  return (
    <Frame>
      <SearchField
        value={value}
        onValueChange={setValue}
        hotWords={['vampire', 'detective', 'space captain']}
      />
    </Frame>
  );
}

export const Search: Story = {
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

export const Packages: StoryObj<{ onChoose: (id: string) => void }> = {
  args: { onChoose: fn() },
  render: (args) => (
    <Frame>
      <Grid columns={2}>
        <PackageCard
          pkg={createPackageFixture({
            packageId: 'free',
            name: 'Free',
            price: { amount: 0, currency: 'USD' },
            chats: 50,
            goldCoins: 0,
            features: ['50 messages a month'],
          })}
          current
          onChoose={args.onChoose}
        />
        <PackageCard pkg={createPackageFixture()} highlighted onChoose={args.onChoose} />
      </Grid>
    </Frame>
  ),
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const plus = canvas.getByRole('article', { name: 'Plus' });
    await expect(plus).toHaveTextContent('$9.99 / month');
    await expect(plus).toHaveTextContent('3,000 chats · 200 gold coins');
    await userEvent.click(within(plus).getByRole('button', { name: 'Choose' }));
    await expect(args.onChoose).toHaveBeenCalledWith('package-plus');
    await userEvent.click(
      within(canvas.getByRole('article', { name: 'Free' })).getByRole('button', {
        name: 'Your plan',
      }),
    );
    await expect(args.onChoose).toHaveBeenCalledOnce();
  },
};

export const Scrolling: Story = {
  render: () => (
    <Tall>
      <ScrollArea label="Main content">
        {Array.from({ length: 30 }, (_, index) => (
          <p key={index}>
            Line {index + 1} <Link href="#top">top</Link>
          </p>
        ))}
      </ScrollArea>
    </Tall>
  ),
  play: async ({ canvasElement }) => {
    const region = within(canvasElement).getByRole('region', { name: 'Main content' });
    region.scrollTop = 400;
    await expect(region.scrollTop).toBeGreaterThan(0);
    region.scrollTo({ top: 0 });
    await expect(region.scrollTop).toBe(0);
  },
};
