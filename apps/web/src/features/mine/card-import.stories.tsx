import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createMateFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { screenStories } from '../../testing/story-app';
import { handlers, page, pngBlob, reset, server, signedIn } from './story-server';

const meta = { title: 'Screens/Card import', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

type Canvas = Parameters<NonNullable<Story['play']>>[0]['canvas'];

/** Opens the import panel and gives back it and its file input. */
async function openImport(canvas: Canvas) {
  await userEvent.click(await canvas.findByRole('button', { name: 'Import a card' }));
  const panel = await canvas.findByRole('region', { name: 'Import a character card' });
  const input = panel.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { panel: within(panel), input };
}

const pngCard = async () => new File([await pngBlob()], 'Seraphina.png', { type: 'image/png' });

/**
 * A PNG card chosen with the picker: the preview says what will be created and, apart, what
 * will not be used and which tags are dropped; "Import Seraphina" creates it and leads to it.
 */
export const ImportAPngCard: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    await expect(panel.getByRole('button', { name: 'Choose a card file' })).toBeVisible();
    await userEvent.upload(input, await pngCard());
    const preview = within(await panel.findByRole('region', { name: 'What will be created' }));
    await expect(preview.getByText('Seraphina')).toBeVisible();
    await expect(preview.getByText('The picture in the card becomes the portrait.')).toBeVisible();
    await expect(preview.getByText(/Character Card V2 · Made by Anonymous/)).toBeVisible();
    const unused = preview.getByRole('list', { name: 'Kept in the card but not used in chats' });
    await expect(unused).toHaveTextContent('Lorebook "Eldoria" (12 entries)');
    const dropped = preview.getByRole('list', { name: 'Tags Mates does not have (left out)' });
    await expect(dropped).toHaveTextContent('forest-guardian');
    // The PNG went as it is, base64-encoded; nothing is created before "Import".
    await expect(server.previews).toHaveLength(1);
    const sent = atob((server.previews[0] as { png: string }).png);
    await expect(sent.slice(1, 4)).toBe('PNG');
    await expect(server.imports).toEqual([]);
    await userEvent.click(panel.getByRole('button', { name: 'Import Seraphina' }));
    await expect(
      await panel.findByText(
        'Seraphina is now one of your mates. It is private until you publish it.',
      ),
    ).toBeVisible();
    await expect(server.imports).toEqual(server.previews);
    await expect(panel.getByRole('link', { name: 'Open in the editor' })).toHaveAttribute(
      'href',
      '#/generate?mateId=mate-imported',
    );
    await expect(panel.getByRole('button', { name: 'Start chatting' })).toBeVisible();
  },
};

/** The preview of a card, with what will not be used and the dropped tags. */
export const ImportPreview: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    await userEvent.upload(input, await pngCard());
    await expect(
      await panel.findByRole('list', { name: 'Kept in the card but not used in chats' }),
    ).toBeVisible();
  },
};

/** A JSON card goes parsed; Cancel closes the panel and creates nothing. */
export const CancelAJsonCard: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    const card = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Seraphina' } };
    await userEvent.upload(
      input,
      new File([JSON.stringify(card)], 'seraphina.json', { type: 'application/json' }),
    );
    await panel.findByRole('button', { name: 'Import Seraphina' });
    await expect(server.previews).toEqual([{ card }]);
    await userEvent.click(panel.getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(canvas.queryByRole('region', { name: 'Import a character card' })).toBeNull(),
    );
    await expect(server.imports).toEqual([]);
  },
};

/** A dropped .txt file is refused by the drop zone; the server is not asked. */
export const RefuseATextFile: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    const { panel } = await openImport(canvas);
    const zone = panel.getByRole('group', { name: /Drop a PNG or JSON character card here/ });
    const file = new File(['name: Seraphina'], 'seraphina.txt', { type: 'text/plain' });
    const dataTransfer = new DataTransfer();
    dataTransfer.items.add(file);
    // Real drag events: testing-library cannot carry a real DataTransfer's files.
    zone.dispatchEvent(
      new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer }),
    );
    await expect(await panel.findByText('Let go to read this card.')).toBeVisible();
    zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer }));
    await expect(await panel.findByRole('alert')).toHaveTextContent(
      'That is not a character card: choose a PNG or JSON file.',
    );
    await expect(server.previews).toEqual([]);
  },
};

/**
 * A PNG card over 8 MB (the most a card's picture may be, as a portrait upload's) is refused by
 * the drop zone in the person's words; the server, which refuses it too, is not asked.
 */
export const RefuseAPngOver8Mb: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    const png = new Uint8Array(9 * 1024 * 1024);
    png.set(new Uint8Array(await (await pngBlob()).arrayBuffer()));
    await userEvent.upload(input, new File([png], 'Seraphina.png', { type: 'image/png' }));
    await expect(await panel.findByRole('alert')).toHaveTextContent(
      'That picture is larger than 8 MB.',
    );
    await expect(server.previews).toEqual([]);
  },
};

/** A .json file that is not JSON: said by the drop zone. */
export const RefuseBrokenJson: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    await userEvent.upload(
      input,
      new File(['{"spec": "chara_card_v2",'], 'broken.json', { type: 'application/json' }),
    );
    await expect(await panel.findByRole('alert')).toHaveTextContent(
      'That JSON file could not be read: it is not valid JSON.',
    );
    await expect(server.previews).toEqual([]);
  },
};

/** The server refuses the card (4000): its reason shows by the drop zone. */
export const ImportError: Story = {
  loaders: [reset],
  parameters: {
    app: signedIn,
    msw: {
      handlers: handlers(
        mockEndpointError('/mate/previewCard', 4000, 'png: no chara or ccv3 chunk in this PNG'),
      ),
    },
  },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    await userEvent.upload(input, await pngCard());
    await expect(await panel.findByRole('alert')).toHaveTextContent(
      'png: no chara or ccv3 chunk in this PNG',
    );
    await expect(
      panel.getByRole('button', { name: 'Choose a card file' }),
    ).toHaveAccessibleDescription('png: no chara or ccv3 chunk in this PNG');
    await expect(panel.queryByRole('button', { name: /^Import / })).toBeNull();
  },
};

/** With no mates yet, the empty state's "Import a card" opens the import. */
export const ImportFromEmpty: Story = {
  parameters: {
    app: signedIn,
    msw: { handlers: handlers(mockEndpoint('/mate/myMates', () => page([]))) },
  },
  play: async ({ canvas }) => {
    await canvas.findByText('You have not made a mate yet');
    const { panel } = await openImport(canvas);
    await expect(panel.getByRole('button', { name: 'Choose a card file' })).toBeVisible();
  },
};

/** While the server reads the card, the panel says so; nothing can be imported yet. */
export const ReadACardAndWait: Story = {
  loaders: [reset],
  parameters: {
    app: signedIn,
    msw: { handlers: handlers(mockEndpointLoading('/mate/previewCard')) },
  },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    await userEvent.upload(input, await pngCard());
    await expect(await panel.findByRole('status', { name: 'Reading the card' })).toBeVisible();
    await expect(panel.queryByRole('button', { name: /^Import / })).toBeNull();
  },
};

/** The import itself is refused (too many, 4003): the reason shows, the preview stays, nothing is created. */
export const ImportRefused: Story = {
  loaders: [reset],
  parameters: {
    app: signedIn,
    msw: {
      handlers: handlers(
        mockEndpointError(
          '/mate/importCard',
          4003,
          'Too many attempts. Please try again in 12 minutes.',
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    await userEvent.upload(input, await pngCard());
    await userEvent.click(await panel.findByRole('button', { name: 'Import Seraphina' }));
    await expect(await panel.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please try again in 12 minutes.',
    );
    await expect(panel.getByRole('region', { name: 'What will be created' })).toBeVisible();
    await expect(panel.queryByText(/is now one of your mates/)).toBeNull();
  },
};

/** A second click while the import is under way does not import the card again. */
export const ImportOnceWhileBusy: Story = {
  loaders: [reset],
  parameters: {
    app: signedIn,
    msw: {
      handlers: handlers(
        mockEndpoint('/mate/importCard', async ({ body }) => {
          server.imports.push(body as (typeof server.imports)[number]);
          await new Promise((resolve) => setTimeout(resolve, 400));
          return createMateFixture({ mateId: 'mate-imported', name: 'Seraphina' });
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const { panel, input } = await openImport(canvas);
    await userEvent.upload(input, await pngCard());
    const button = await panel.findByRole('button', { name: 'Import Seraphina' });
    await userEvent.click(button);
    await userEvent.click(button);
    await panel.findByText(
      'Seraphina is now one of your mates. It is private until you publish it.',
    );
    await expect(server.imports).toHaveLength(1);
  },
};
