import type {
  ExportCardQuery,
  ImportCardPayload,
  OwnMateSummary,
  SetVisibilityPayload,
} from '@mates/api-client';
import {
  createCardPreviewFixture,
  createMateFixture,
  createOwnMateFixture,
  mockEndpoint,
} from '@mates/api-client/msw';
import { api, type StoryAppOptions } from '../../testing/story-app';

// The mocked server of the "Your mates" and card import stories.

/** Where these stories start: /mine, signed in. */
export const signedIn: StoryAppOptions = { path: '/mine', signedIn: true };

const counters = createOwnMateFixture().counters;

/** Every kind of own mate: public, private, draft, and a public one that moderators hid. */
export const ownMates = (): OwnMateSummary[] => [
  createOwnMateFixture({ visibility: 'public' }, 0),
  createOwnMateFixture({ visibility: 'private' }, 1),
  createOwnMateFixture({ visibility: 'draft', counters: { ...counters, chats: 0 } }, 2),
  createOwnMateFixture(
    {
      visibility: 'public',
      moderation: {
        reason: 'underage',
        note: 'The description gives her age as fifteen.',
        hiddenAt: '2026-11-21T10:00:00.000Z',
      },
    },
    3,
  ),
];
/** One page of own mates. */
export const page = (list: OwnMateSummary[], hasMore = false) => ({
  list,
  page: 1,
  pageSize: 20,
  total: list.length + (hasMore ? 1 : 0),
  hasMore,
});

// What the mocked server remembers and was asked during one story.
/** What the mocked server remembers and was asked during one story. */
export const server = {
  mates: [] as OwnMateSummary[],
  queries: [] as Record<string, string>[],
  visibility: [] as SetVisibilityPayload[],
  deleted: [] as string[],
  exports: [] as ExportCardQuery[],
  previews: [] as ImportCardPayload[],
  imports: [] as ImportCardPayload[],
};
/** A loader: the server as a story starts. */
export const reset = () =>
  void Object.assign(server, {
    mates: ownMates(),
    queries: [],
    visibility: [],
    deleted: [],
    exports: [],
    previews: [],
    imports: [],
  });

/** The story's API: `overrides` first, then the remembering server, then every fixture. */
export const handlers = (...overrides: Parameters<typeof api>) =>
  api(
    ...overrides,
    mockEndpoint('/mate/myMates', ({ query }) => {
      server.queries.push(query);
      return page(
        server.mates.filter((mate) => !query.visibility || mate.visibility === query.visibility),
      );
    }),
    mockEndpoint('/mate/setVisibility', ({ body }) => {
      const payload = body as SetVisibilityPayload;
      server.visibility.push(payload);
      server.mates = server.mates.map((mate) =>
        mate.mateId === payload.mateId ? { ...mate, visibility: payload.visibility } : mate,
      );
      return createMateFixture({ mateId: payload.mateId, visibility: payload.visibility });
    }),
    mockEndpoint('/mate/duplicateMate', ({ body }) => {
      const { mateId } = body as { mateId: string };
      const original = server.mates.find((mate) => mate.mateId === mateId)!;
      const copy = { ...original, mateId: `${mateId}-copy`, name: `${original.name} (copy)` };
      server.mates = [{ ...copy, visibility: 'private' }, ...server.mates];
      return createMateFixture({ ...copy, visibility: 'private' });
    }),
    mockEndpoint('/mate/deleteMate', ({ body }) => {
      const { mateId } = body as { mateId: string };
      server.deleted.push(mateId);
      server.mates = server.mates.filter((mate) => mate.mateId !== mateId);
      return null;
    }),
    mockEndpoint('/mate/exportCard', async ({ query }) => {
      server.exports.push(query as unknown as ExportCardQuery);
      return {
        filename: 'Lyra Moonwhisper.png',
        mimeType: 'image/png',
        data: await pngBase64(),
      };
    }),
    mockEndpoint('/mate/previewCard', ({ body }) => {
      server.previews.push(body as ImportCardPayload);
      return createCardPreviewFixture();
    }),
    mockEndpoint('/mate/importCard', ({ body }) => {
      server.imports.push(body as ImportCardPayload);
      return createMateFixture({
        mateId: 'mate-imported',
        name: 'Seraphina',
        visibility: 'private',
      });
    }),
  );

/** A real PNG drawn by the browser. */
export async function pngBlob(): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = 16;
  canvas.height = 24;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#b5651d';
  context.fillRect(0, 0, 16, 24);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob!), 'image/png'));
}
/** A real PNG, base64-encoded. */
export async function pngBase64(): Promise<string> {
  const bytes = new Uint8Array(await (await pngBlob()).arrayBuffer());
  return btoa(String.fromCharCode(...bytes));
}
