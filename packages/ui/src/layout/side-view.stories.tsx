import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { NarrowOnly, SideLink, SideView } from './side-view';
import { Button } from '../controls/button';

function Example() {
  const [open, setOpen] = useState(false);
  return (
    <SideView
      sideLabel="Your chats"
      drawerOpen={open}
      onDrawerOpenChange={setOpen}
      side={
        <ul>
          {['Lyra', 'Kai', 'Sable'].map((name) => (
            <li key={name}>
              <SideLink
                href={`#${name}`}
                current={name === 'Lyra'}
                onClick={(event) => {
                  // The story's frame stays where it is; a real page would navigate.
                  event.preventDefault();
                  setOpen(false);
                }}
              >
                {name}
              </SideLink>
            </li>
          ))}
        </ul>
      }
    >
      <NarrowOnly>
        <Button size="small" variant="ghost" onClick={() => setOpen(true)}>
          Chats
        </Button>
      </NarrowOnly>
      <p>The conversation with Lyra.</p>
    </SideView>
  );
}

const meta = {
  title: 'Layout/SideView',
  component: Example,
  tags: ['autodocs'],
  parameters: {
    docs: {
      description: {
        component:
          "Main content with a side column beside it on wide screens (a chat app's list of conversations); on phones the side opens as a drawer from the left edge.",
      },
    },
  },
} satisfies Meta<typeof Example>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Wide: the side is a named navigation beside the main content; no drawer button. */
export const Wide: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const side = canvas.getByRole('navigation', { name: 'Your chats' });
    await expect(within(side).getByRole('link', { name: 'Kai' })).toBeVisible();
    await expect(within(side).getByRole('link', { name: 'Lyra' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(canvas.queryByRole('button', { name: 'Chats' })).toBeNull();
  },
};

/** Phone: the side is hidden; "Chats" opens it as a drawer, Escape closes it, focus returns. */
export const PhoneDrawer: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    await expect(canvas.queryByRole('navigation', { name: 'Your chats' })).toBeNull();
    const opener = canvas.getByRole('button', { name: 'Chats' });
    await userEvent.click(opener);
    const drawer = await body.findByRole('dialog', { name: 'Your chats' });
    await expect(within(drawer).getByRole('link', { name: 'Kai' })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(opener).toHaveFocus();
    // Choosing a chat closes the drawer.
    await userEvent.click(opener);
    await userEvent.click(await body.findByRole('link', { name: 'Sable' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
  },
};
