import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { ENDPOINTS, ENDPOINT_PATHS, type EndpointOutput, type EndpointPath } from '../endpoints';
import type { Envelope } from '../types/envelope';
import type { ChatStreamEvent } from '../types/chat';
import type { UpdateNicknamePayload, UserBenefits } from '../types/user';
import type { ExportTicketPayload } from '../types/privacy';
import type {
  GenerateRolePayload,
  MateQuery,
  SaveMatePayload,
  SetVisibilityPayload,
} from '../types/mate';
import type { HideMatePayload } from '../types/moderation';
import type { SaveMemoryPayload, SetMemoryAcrossChatsPayload } from '../types/memory';
import type { ChatExportFormat } from '../types/branch';
import type {
  CreateGroupPayload,
  GroupMemberPayload,
  UpdateGroupMemberPayload,
  UpdateGroupPayload,
} from '../types/group';
import * as fixtures from './fixtures';
import { createCallTicketFixture } from './call-fixtures';

/** Where handlers listen by default: any origin, under `/api`. */
export const DEFAULT_MSW_BASE_URL = '*/api';

/** What a resolver of {@link mockEndpoint} receives. */
export interface MockRequest {
  /** The query string as an object (GET calls). */
  query: Record<string, string>;
  /** The parsed JSON body (POST calls), or `undefined`. */
  body: unknown;
  /** The request itself. */
  request: Request;
}

/** Computes the `d` of a mocked call. */
export type MockResolver<P extends EndpointPath> = (
  request: MockRequest,
) => EndpointOutput<P> | Promise<EndpointOutput<P>>;

/** Options shared by the handler factories. */
export interface MockOptions {
  /** The API base the handlers answer under; default {@link DEFAULT_MSW_BASE_URL}. */
  baseUrl?: string;
}

/** Wraps data in a success envelope. */
export function envelope<T>(d: T): Envelope<T> {
  return { c: 200, m: '', d };
}

function handler(
  path: EndpointPath,
  options: MockOptions,
  respond: (request: Request) => Promise<Response>,
) {
  const url = `${options.baseUrl ?? DEFAULT_MSW_BASE_URL}${path}`;
  const make = ENDPOINTS[path].method === 'GET' ? http.get : http.post;
  return make(url, ({ request }) => respond(request));
}

async function readRequest(request: Request): Promise<MockRequest> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const text = request.method === 'GET' ? '' : await request.text();
  return { query, body: text === '' ? undefined : (JSON.parse(text) as unknown), request };
}

/** A handler that answers one call with a success envelope holding what `resolve` gives. */
export function mockEndpoint<P extends EndpointPath>(
  path: P,
  resolve: MockResolver<P>,
  options: MockOptions = {},
): HttpHandler {
  return handler(path, options, async (request) =>
    HttpResponse.json(envelope(await resolve(await readRequest(request)))),
  );
}

/** A handler that answers one call with an error envelope (e.g. 5002, 5007). */
export function mockEndpointError(
  path: EndpointPath,
  code: number,
  message = '',
  options: MockOptions = {},
): HttpHandler {
  return handler(path, options, async () => HttpResponse.json({ c: code, m: message, d: null }));
}

/** A handler that never answers one call: for loading states. */
export function mockEndpointLoading(path: EndpointPath, options: MockOptions = {}): HttpHandler {
  return handler(path, options, async () => {
    await delay('infinite');
    return HttpResponse.json(envelope(null));
  });
}

/** Options of {@link mockChatStream}. */
export interface MockChatStreamOptions extends MockOptions {
  /** The reply to stream, word by word; default a short greeting. */
  reply?: string;
  /** Milliseconds between events; default 40. */
  delayMs?: number;
  /** End with an `error` event with this message instead of `reply-end`. */
  errorMessage?: string;
  /** Benefits reported by `reply-end`. */
  benefits?: UserBenefits;
  /**
   * A group chat's turn: these members answer one after another, each with its own reply (the
   * `reply` option is then not used; `errorMessage` ends the last one). None: the message is
   * saved and nobody answers (`message-saved`).
   */
  speakers?: { speakerId: string; reply: string }[];
}

/** A `/girl/chat/send` handler that streams a reply as `data:` lines, like the server. */
export function mockChatStream(options: MockChatStreamOptions = {}): HttpHandler {
  const { reply = 'Of course. *leans closer* Tell me everything.', delayMs = 40 } = options;
  return handler('/girl/chat/send', options, async (request) => {
    const payload = (await request.json()) as { roomId?: string; content?: string };
    const roomId = payload.roomId ?? 'room-1';
    const userMessage = payload.content
      ? fixtures.createMessageFixture({
          messageId: 'msg-user',
          roomId,
          role: 'user',
          content: payload.content,
        })
      : null;
    const replies = options.speakers ?? [{ speakerId: undefined, reply }];
    // A group message nobody answers on their own: saved, and said so.
    const saved: ChatStreamEvent[] =
      replies.length === 0 && userMessage ? [{ type: 'message-saved', roomId, userMessage }] : [];
    const events = saved.concat(
      replies.flatMap(({ speakerId, reply: text }, index): ChatStreamEvent[] => {
        const messageId = replies.length > 1 ? `msg-reply-${index + 1}` : 'msg-reply';
        const last = index === replies.length - 1;
        return [
          {
            type: 'reply-start',
            roomId,
            userMessage: index === 0 ? userMessage : null,
            messageId,
            ...(speakerId !== undefined && { speakerId }),
          },
          ...(text.match(/\S+\s*/g) ?? []).map((word): ChatStreamEvent => ({
            type: 'reply-delta',
            text: word,
          })),
          last && options.errorMessage
            ? { type: 'error', message: options.errorMessage, messageId }
            : {
                type: 'reply-end',
                messageId,
                finishReason: 'stop',
                usage: { promptTokens: 120, completionTokens: 12 },
                benefits: options.benefits ?? fixtures.createBenefitsFixture({ chats: 19 - index }),
              },
        ];
      }),
    );
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const event of events) {
          await delay(delayMs);
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
        }
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
      },
    });
    return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
  });
}

type DefaultResolvers = { [P in Exclude<EndpointPath, '/girl/chat/send'>]: MockResolver<P> };

/** What every call answers by default: realistic fixtures, echoing ids from the input. */
export const DEFAULT_RESOLVERS: DefaultResolvers = {
  '/mate/recommend': () => fixtures.createPageFixture(fixtures.createMateSummariesFixture()),
  '/mate/getMateDetail': ({ query }) =>
    fixtures.createMateFixture({ mateId: query.mateId ?? 'mate-1' }),
  '/mate/mateExtraInfo': ({ query }) =>
    fixtures.createMateExtraInfoFixture({ mateId: query.mateId ?? 'mate-1' }),
  '/mate/search': () => fixtures.createPageFixture(fixtures.createMateSummariesFixture(3)),
  '/mate/feedback': () => null,
  '/mate/hotWords': () => fixtures.createHotWordsFixture(),
  '/room/createRoom': ({ query }) =>
    fixtures.createRoomFixture({ mateId: query.mateId ?? 'mate-1' }),
  '/room/roomList': () =>
    fixtures.createPageFixture(
      [0, 1, 2].map((index) => fixtures.createRoomSummaryFixture({}, index)),
    ),
  '/room/roomInfo': ({ query }) => {
    const roomId = query.roomId ?? 'room-1';
    const info = fixtures.createRoomInfoFixture({ room: fixtures.createRoomFixture({ roomId }) });
    // The fixture's branches (see createRoomBranchesFixture) hold copies up to msg-2.
    const copy = { 'room-2': 'b', 'room-3': 'c' }[roomId];
    if (!copy) return info;
    return {
      ...info,
      messages: info.messages.slice(0, 2).map((message) => ({
        ...message,
        messageId: `${message.messageId}-${copy}`,
        roomId,
      })),
    };
  },
  '/room/deleteRoom': () => null,
  '/user/login': () => fixtures.createUserInfoFixture(),
  '/user/loginGG': () => fixtures.createUserInfoFixture(),
  '/user/loginDiscord': () => fixtures.createUserInfoFixture(),
  '/user/benefits': () => fixtures.createBenefitsFixture(),
  '/subscription/info': () => fixtures.createSubscriptionInfoFixture(),
  '/user/personas': () => [fixtures.createPersonaFixture()],
  '/user/saveOrUpdatePersona': ({ body }) => fixtures.createPersonaFixture(body as object),
  '/user/setDefaultPersona': ({ query }) =>
    fixtures.createPersonaFixture({ uuid: query.uuid ?? 'persona-1' }),
  '/user/deleteDefaultPersona': () => null,
  '/user/changePassword': () => null,
  '/user/forgotPassword': () => null,
  '/user/resetPassword': () => null,
  '/user/updateLange': () => null,
  '/user/updateTags': ({ body }) => fixtures.createUserInfoFixture(body as object),
  // Tidied as the server does: folded, spaces trimmed and made one.
  '/user/updateNickname': ({ body }) =>
    fixtures.createUserInfoFixture({
      nickname: (body as UpdateNicknamePayload).nickname
        .normalize('NFKC')
        .trim()
        .replace(/\s+/g, ' '),
    }),
  '/user/favorites': () => fixtures.createMateSummariesFixture(3),
  '/user/doFavorite': ({ query }) => ({ mateId: query.mateId ?? 'mate-1', favorite: true }),
  '/room/createImage': () => ({ jobId: 'job-1', messageId: 'msg-image-1' }),
  '/room/checkJobStatus': ({ query }) =>
    fixtures.createJobStatusFixture({ jobId: query.jobId ?? 'job-1' }),
  '/room/cancelImage': ({ body }) =>
    fixtures.createJobStatusFixture({
      jobId: (body as { jobId?: string }).jobId ?? 'job-1',
      state: 'cancelled',
      progress: 0,
      images: [],
    }),
  '/room/pictures': ({ query }) => {
    const list = fixtures
      .createRoomPicturesFixture()
      .map((picture) => ({ ...picture, roomId: query.roomId ?? 'room-1' }));
    return fixtures.createPageFixture(list);
  },
  '/room/sharePicture': ({ body }) => {
    const { messageId = 'msg-image-1', shared = true } = body as {
      messageId?: string;
      shared?: boolean;
    };
    return fixtures.createRoomPictureFixture({
      messageId,
      sharedUrl: shared ? `https://mates.test/api/room/sharedPicture?id=share-${messageId}` : null,
    });
  },
  '/room/deleteMessage': () => null,
  // A group (`room-group`, or a member asked for) remembers per member, as the server does.
  '/room/memories': ({ query }) => {
    const group = query.roomId === 'room-group' || query.mateId !== undefined;
    const all = group
      ? fixtures.createGroupMemoriesFixture()
      : fixtures.createRoomMemoriesFixture();
    return {
      ...all,
      memories: all.memories
        .filter(
          (memory) =>
            query.mateId === undefined || memory.mateId === null || memory.mateId === query.mateId,
        )
        .map((memory) => ({ ...memory, roomId: query.roomId ?? 'room-1' })),
    };
  },
  '/room/saveMemory': ({ body }) => {
    const { roomId, memoryId, content, pinned, about, mateId } = body as SaveMemoryPayload;
    const at = new Date().toISOString();
    // A change keeps what it leaves out, as the server does (of the fixture's memory).
    const before =
      memoryId === undefined
        ? fixtures.createMemoryFixture({
            memoryId: 'memory-new',
            about: 'story',
            author: 'person',
            sourceMessageIds: [],
            createdAt: at,
          })
        : (fixtures
            .createRoomMemoriesFixture()
            .memories.find((memory) => memory.memoryId === memoryId) ??
          fixtures.createMemoryFixture({ memoryId }));
    return {
      ...before,
      roomId,
      content: content === undefined ? before.content : content.trim(),
      ...(pinned === undefined ? {} : { pinned }),
      ...(about === undefined || before.kind === 'summary' ? {} : { about }),
      ...(mateId === undefined || before.kind === 'summary' ? {} : { mateId }),
      needsReview: false,
      updatedAt: at,
    };
  },
  '/room/deleteMemory': () => null,
  '/room/setMemoryAcrossChats': ({ body }) =>
    fixtures.createRoomMemoriesFixture({
      acrossChats: (body as SetMemoryAcrossChatsPayload).enabled,
    }),
  '/room/writeMemories': () =>
    fixtures.createRoomMemoriesFixture({ writer: { state: 'writing', error: null } }),
  '/room/promptView': () => fixtures.createPromptViewFixture(),
  // The fixture's second path (see createRoomBranchesFixture), as if just made.
  '/room/branch': () => fixtures.createRoomFixture({ roomId: 'room-2' }),
  '/room/branches': ({ query }) =>
    fixtures.createRoomBranchesFixture({ roomId: query.roomId ?? 'room-1' }),
  '/room/searchMessages': ({ query }) =>
    query.keyword?.trim()
      ? fixtures.createMessageHitsFixture()
      : fixtures.createMessageHitsFixture(0),
  // No export asked for yet; asking starts one (queued).
  '/user/exportData': () =>
    fixtures.createDataExportFixture({
      state: 'queued',
      progress: 0,
      readyAt: null,
      expiresAt: null,
      size: null,
      downloadUrl: null,
    }),
  '/user/exportStatus': () => ({ latest: null }),
  // The ready zip's link with a ticket: the browser downloads it without the session.
  '/user/exportTicket': ({ body }) => ({
    url: `${(body as ExportTicketPayload).downloadUrl}&ticket=fixture`,
  }),
  '/user/deletionPreview': () => fixtures.createDeletionPreviewFixture(),
  '/user/deleteAccount': () => null,
  '/room/createGroup': ({ body }) => {
    const { mateIds, name, scenario, turnOrder } = body as CreateGroupPayload;
    const group = fixtures.createRoomGroupFixture({
      ...(name && { name }),
      ...(scenario !== undefined && { scenario }),
      ...(turnOrder && { turnOrder }),
      members: mateIds.map((mateId, index) =>
        fixtures.createGroupMemberFixture(
          { mate: fixtures.createMateSummaryFixture({ mateId }, index) },
          index,
        ),
      ),
    });
    return fixtures.createRoomFixture({
      roomId: 'room-group',
      mateId: mateIds[0] ?? 'mate-1',
      group,
    });
  },
  '/room/updateGroup': ({ body }) => {
    const { name, scenario, turnOrder, order } = body as UpdateGroupPayload;
    const group = fixtures.createRoomGroupFixture({
      ...(name !== undefined && { name }),
      ...(scenario !== undefined && { scenario }),
      ...(turnOrder && { turnOrder }),
    });
    // A new list: the fixture's members in that order.
    const members = order?.flatMap((mateId) =>
      group.members.filter((member) => member.mate.mateId === mateId),
    );
    return members ? { ...group, members } : group;
  },
  '/room/addGroupMember': ({ body }) => {
    const { mateId } = body as GroupMemberPayload;
    const group = fixtures.createRoomGroupFixture();
    return {
      ...group,
      members: [
        ...group.members,
        fixtures.createGroupMemberFixture(
          {
            mate: fixtures.createMateSummaryFixture({ mateId }, 3),
            joinedAt: new Date().toISOString(),
          },
          3,
        ),
      ],
    };
  },
  '/room/removeGroupMember': ({ body }) => {
    const { mateId } = body as GroupMemberPayload;
    const group = fixtures.createRoomGroupFixture();
    const at = new Date().toISOString();
    return {
      ...group,
      members: [
        ...group.members.filter((member) => member.mate.mateId !== mateId),
        ...group.members
          .filter((member) => member.mate.mateId === mateId)
          .map((member) => ({ ...member, leftAt: at })),
      ],
    };
  },
  '/call/start': () => createCallTicketFixture(),
  '/room/updateGroupMember': ({ body }) => {
    const { mateId, muted, talkativeness } = body as UpdateGroupMemberPayload;
    const group = fixtures.createRoomGroupFixture();
    return {
      ...group,
      members: group.members.map((member) =>
        member.mate.mateId === mateId
          ? {
              ...member,
              ...(muted !== undefined && { muted }),
              ...(talkativeness !== undefined && { talkativeness }),
            }
          : member,
      ),
    };
  },
  '/room/exportChat': ({ query }) =>
    fixtures.createChatExportFixture(query.format as ChatExportFormat),
  '/room/setPersona': ({ body }) =>
    fixtures.createRoomFixture({ personaId: (body as { personaId: string | null }).personaId }),
  '/room/chooseSwipe': ({ body }) => {
    const { messageId, index } = body as { messageId: string; index: number };
    return fixtures.createMessageFixture({
      messageId,
      content: `Version ${index + 1} of this message.`,
      swipes: { index, count: 3 },
    });
  },
  '/room/editMessage': ({ query }) =>
    fixtures.createMessageFixture({
      messageId: query.messageId ?? 'msg-1',
      role: 'user',
      content: query.content ?? '',
      editedAt: new Date().toISOString(),
    }),
  '/voice/textToAudio': () => fixtures.createAudioClipFixture(),
  '/user/register': () => ({ verifyTicket: 'ticket-1' }),
  '/user/verify/status': () => ({ verified: true, userInfo: fixtures.createUserInfoFixture() }),
  '/user/logout': () => null,
  '/mate/review': ({ body }) => fixtures.createReviewFixture(body as object),
  '/mate/followCreator': ({ query }) => ({
    creatorId: query.creatorId ?? 'creator-1',
    following: true,
  }),
  '/mate/followList': () => [
    { ...fixtures.createCreatorFixture(), followedAt: '2026-11-01T09:00:00.000Z' },
  ],
  '/mate/trendingRank': () => fixtures.createTrendingFixture(),
  '/girl/chat/getInspiration': ({ body }) =>
    (body as { kind?: string }).kind === 'picture'
      ? {
          suggestions: [
            'Lyra on the lighthouse balcony at dusk, wind in her silver hair, a lantern glowing',
            'Lyra laughing at the harbour market, holding a paper bag of oranges',
            'Lyra asleep over a star chart by candlelight',
          ],
        }
      : {
          suggestions: ['Tell me about your day.', 'What are you reading?', 'Can I sit with you?'],
        },
  '/user/feedback': () => null,
  '/aigc/models': () => fixtures.createModelsFixture(),
  '/speech/link': ({ body }) => ({
    url: fixtures.createAudioFixture(1200),
    // An hour from now, as the server signs it: a fixed date would have the link expired once
    // that day came, and every story that plays one fail.
    expiresAt: new Date(Date.now() + 60 * 60_000).toISOString(),
    voice: (body as { voice?: string }).voice ?? 'embedded-slt',
    charged: 1,
  }),
  '/voice/voices': () => fixtures.createVoiceCatalogFixture(),
  '/subscription/checkout': ({ body }) => ({
    checkoutId: 'cs_test_1',
    // Where the payment provider would send the buyer; the app treats it as an external page.
    url: `https://checkout.stripe.test/c/pay/cs_test_1#${(body as { packageId?: string }).packageId ?? ''}`,
  }),
  '/subscription/checkoutStatus': ({ query }) =>
    fixtures.createCheckoutStatusFixture({ checkoutId: query.checkoutId ?? 'cs_test_1' }),
  '/subscription/cancel': () => fixtures.createSubscriptionFixture({ cancelAtPeriodEnd: true }),
  '/subscription/resume': () => fixtures.createSubscriptionFixture(),
  '/user/ledger': () => fixtures.createPageFixture(fixtures.createLedgerFixture()),
  '/user/spendingCap': () => fixtures.createSpendingCapFixture(),
  '/user/setSpendingCap': ({ body }) =>
    fixtures.createSpendingCapFixture(
      body as { dailyChats: number | null; dailyGoldCoins: number | null },
    ),
  '/voice/transcribe': () => ({ text: 'Tell me about the lighthouse.' }),
  '/extra/tags': () => fixtures.createTagsFixture(),
  '/extra/tagsMap': () => fixtures.createTagGroupsFixture(),
  '/extra/publicConfig': () => fixtures.createPublicConfigFixture(),
  '/mate/importCard': () =>
    fixtures.createMateFixture({ mateId: 'mate-imported', visibility: 'private' }),
  '/mate/generateRole': ({ body }) => {
    const payload = body as GenerateRolePayload;
    const fresh = fixtures.createMateDraftFixture({
      gender: payload.gender ?? 'female',
      nsfw: payload.nsfw ?? false,
      creator_notes: `From the idea: ${payload.idea}`,
    });
    if (!payload.field || !payload.draft) return fresh;
    return { ...payload.draft, [payload.field]: fresh[payload.field] };
  },
  '/mate/saveMate': ({ body }) =>
    fixtures.createMateFixture({
      ...(body as object),
      mateId: (body as { mateId?: string }).mateId ?? 'mate-saved',
      // As the server: the visibility asked for; absent, private (it keeps no earlier one).
      visibility: (body as SaveMatePayload).visibility ?? 'private',
    }),
  '/mate/myMates': () => ({
    list: [0, 1, 2].map((index) => fixtures.createOwnMateFixture({}, index)),
    page: 1,
    pageSize: 20,
    total: 3,
    hasMore: false,
  }),
  '/mate/setVisibility': ({ body }) => {
    const { mateId, visibility } = body as SetVisibilityPayload;
    return fixtures.createMateFixture({ mateId, visibility });
  },
  '/mate/duplicateMate': ({ body }) => {
    const mate = fixtures.createMateFixture();
    return {
      ...mate,
      mateId: `${(body as MateQuery).mateId}-copy`,
      name: `${mate.name} (copy)`,
      visibility: 'private',
    };
  },
  '/mate/deleteMate': () => null,
  '/mate/portraitChoices': ({ query }) =>
    [0, 1, 2, 3, 4, 5].map((index) => ({
      choiceId: `fixture:${query.seed ?? 'seed'}:${index}`,
      url: fixtures.createAvatarFixture(`${query.seed ?? 'seed'} ${index}`, index * 60),
    })),
  '/mate/setPortrait': ({ body }) =>
    fixtures.createMateFixture({ mateId: (body as { mateId: string }).mateId }),
  '/mate/previewCard': () => fixtures.createCardPreviewFixture(),
  '/mate/creatorInfo': ({ query }) =>
    fixtures.createCreatorProfileFixture({ creatorId: query.creatorId ?? 'creator-1' }),
  '/mate/creatorMates': () => fixtures.createPageFixture(fixtures.createMateSummariesFixture(6)),
  '/admin/reports': ({ query }) =>
    fixtures.createPageFixture(
      query.state === 'hidden'
        ? [
            fixtures.createReportedMateFixture({
              mate: {
                ...fixtures.createReportedMateFixture().mate,
                moderation: { reason: 'underage', note: '', hiddenAt: '2026-11-21T10:00:00.000Z' },
              },
              reports: [],
              openReports: 0,
            }),
          ]
        : [fixtures.createReportedMateFixture()],
    ),
  '/admin/hideMate': ({ body }) => ({
    reason: (body as HideMatePayload).reason,
    note: (body as HideMatePayload).note ?? '',
    hiddenAt: '2026-11-21T10:00:00.000Z',
  }),
  '/admin/restoreMate': () => null,
  '/admin/dismissReports': () => null,
  '/mate/exportCard': ({ query }) => ({
    filename: `${query.mateId ?? 'mate'}.json`,
    mimeType: 'application/json',
    data: btoa(
      JSON.stringify({
        spec: 'chara_card_v2',
        spec_version: '2.0',
        data: { name: 'Lyra Moonwhisper' },
      }),
    ),
  }),
};

/**
 * Handlers for every call, answering with {@link DEFAULT_RESOLVERS} and a streamed chat
 * reply. Put story- or test-specific handlers before these to override one call.
 */
export function createHandlers(options: MockOptions = {}): HttpHandler[] {
  return ENDPOINT_PATHS.map((path) =>
    path === '/girl/chat/send'
      ? mockChatStream(options)
      : mockEndpoint(path, DEFAULT_RESOLVERS[path] as MockResolver<typeof path>, options),
  );
}
