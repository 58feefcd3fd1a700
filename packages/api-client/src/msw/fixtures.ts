import type { Gender, Paged } from '../types/common';
import type {
  Creator,
  CreatorProfile,
  HotWord,
  Mate,
  MateDraft,
  MateExtraInfo,
  MateSummary,
  OwnMateSummary,
  PublicConfig,
  Review,
  Tag,
  TagGroup,
  TrendingEntry,
} from '../types/mate';
import type { Message, Room, RoomInfo, RoomSummary } from '../types/room';
import type { Memory, PromptView, RoomMemories } from '../types/memory';
import type { Branch, ChatExport, ChatExportFormat, RoomBranches } from '../types/branch';
import type { MessageHit, MessageHits } from '../types/search';
import type { DataExport, DeletionPreview } from '../types/privacy';
import type { GroupMember, RoomGroup } from '../types/group';
import type { CardPreview } from '../types/card';
import type { ReportedMate } from '../types/moderation';
import type { Persona, UserBenefits, UserInfo } from '../types/user';
import type {
  AigcModel,
  AudioClip,
  ImageSize,
  JobStatus,
  MessageImage,
  RoomPicture,
  Voice,
  VoiceCatalog,
} from '../types/media';
import type {
  CheckoutStatus,
  FeatureCosts,
  Package,
  Subscription,
  SubscriptionInfo,
} from '../types/subscription';
import type { LedgerEntry, SpendingCap } from '../types/ledger';

const CREATED = '2026-10-01T12:00:00.000Z';
const UPDATED = '2026-11-20T18:30:00.000Z';

/** A self-contained portrait: a coloured square with initials, as an SVG data URL. */
export function createAvatarFixture(name: string, hue = hueOf(name)): string {
  const initials = name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="320" viewBox="0 0 256 320">` +
    `<rect width="256" height="320" fill="hsl(${hue} 55% 42%)"/>` +
    `<text x="128" y="180" font-family="sans-serif" font-size="96" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * The portrait URL of a sample person: `/portraits/<name-in-kebab-case>.svg`, a path on the
 * page's own origin. The Mates Storybook serves these files (DiceBear lorelei and notionists
 * portraits, CC0, the styles the server seeds with); elsewhere, serve your own or pass an
 * `avatar` override (for example {@link createAvatarFixture}).
 */
export function createPortraitFixture(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `/portraits/${slug}.svg`;
}

function hueOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

const SEEDS: [string, Gender, string, string[]][] = [
  [
    'Lyra Moonwhisper',
    'female',
    'An elven archivist who remembers every story ever told.',
    ['fantasy', 'wholesome'],
  ],
  [
    'Kai Tanaka',
    'male',
    'A night-shift barista with a soft voice and sharper jokes.',
    ['slice-of-life', 'romance'],
  ],
  [
    'Captain Ione Vask',
    'female',
    'Commander of a smuggler frigate on the edge of known space.',
    ['sci-fi', 'adventure'],
  ],
  [
    'Rowan Ashdown',
    'nonbinary',
    'A cartographer mapping a city that rearranges itself nightly.',
    ['mystery', 'fantasy'],
  ],
  [
    'Dr. Mira Solberg',
    'female',
    'A marine biologist who talks to you between dives.',
    ['slice-of-life', 'science'],
  ],
  [
    'Theo Blackwood',
    'male',
    'A retired detective who still cannot leave a cold case alone.',
    ['mystery', 'noir'],
  ],
  [
    'Sable',
    'female',
    'A vampire diplomat negotiating peace one dinner at a time.',
    ['romance', 'horror'],
  ],
  [
    'Juniper Hale',
    'nonbinary',
    'Your rival at the culinary academy, who secretly wants your notes.',
    ['comedy', 'slice-of-life'],
  ],
];

/** A creator fixture. */
export function createCreatorFixture(overrides: Partial<Creator> = {}): Creator {
  return {
    creatorId: 'creator-1',
    name: 'Wren Calloway',
    avatar: createPortraitFixture('Wren Calloway'),
    bio: 'I write characters who remember what you told them.',
    followers: 1280,
    mates: 12,
    ...overrides,
  };
}

/** A mate-list fixture: the `index`-th of eight varied sample mates. */
export function createMateSummaryFixture(
  overrides: Partial<MateSummary> = {},
  index = 0,
): MateSummary {
  const [name, gender, tagline, tags] = SEEDS[index % SEEDS.length]!;
  const { creatorId, name: creatorName, avatar } = createCreatorFixture();
  return {
    mateId: `mate-${index + 1}`,
    name,
    avatar: createPortraitFixture(name),
    tagline,
    tags,
    gender,
    nsfw: false,
    creator: { creatorId, name: creatorName, avatar },
    counters: {
      chats: 5400 - index * 410,
      messages: 88_000 - index * 5000,
      favorites: 930 - index * 70,
      reviews: 42 - index * 3,
      rating: 4.6,
    },
    ...overrides,
  };
}

/** `count` different mate-list fixtures. */
export function createMateSummariesFixture(count = 8): MateSummary[] {
  return Array.from({ length: count }, (_, index) => createMateSummaryFixture({}, index));
}

/** A whole-mate fixture with every Character Card V2 field filled. */
export function createMateFixture(overrides: Partial<Mate> = {}, index = 0): Mate {
  const summary = createMateSummaryFixture({}, index);
  return {
    ...summary,
    description: `${summary.name}. ${summary.tagline} Patient, curious and a little stubborn.`,
    personality: 'warm, witty, observant, stubborn about small things',
    scenario: 'You meet {{char}} late in the evening, when the day has gone quiet.',
    first_mes: `*${summary.name} looks up and smiles.* Oh, it's you, {{user}}. I was hoping you'd come by.`,
    mes_example: '<START>\n{{user}}: How was your day?\n{{char}}: Long. Better now.',
    creator_notes: 'Works best with slow, descriptive replies.',
    system_prompt: '',
    alternate_greetings: [`*${summary.name} waves.* You made it!`],
    visibility: 'public',
    voice: null,
    moderation: null,
    createdAt: CREATED,
    updatedAt: UPDATED,
    ...overrides,
  };
}

/** One of the caller's own mates, as "Your mates" lists it (the `index`-th sample). */
export function createOwnMateFixture(
  overrides: Partial<OwnMateSummary> = {},
  index = 0,
): OwnMateSummary {
  const { creatorId, name, avatar } = createUserCreatorFixture();
  return {
    ...createMateSummaryFixture({ creator: { creatorId, name, avatar } }, index),
    visibility: (['public', 'private', 'draft'] as const)[index % 3]!,
    moderation: null,
    updatedAt: UPDATED,
    ...overrides,
  };
}

// The signed-in fixture user as a creator.
function createUserCreatorFixture() {
  return { creatorId: 'user-1', name: 'Ada', avatar: null };
}

/** The draft `POST /mate/generateRole` answers: every field of a mate filled. */
export function createMateDraftFixture(overrides: Partial<MateDraft> = {}): MateDraft {
  return {
    name: 'Marisol Vega',
    tagline: 'A lighthouse keeper who collects the stories ships leave behind.',
    description:
      '{{char}} keeps the last lighthouse on a windy island and writes down every story a passing sailor tells.',
    personality: 'patient, dry-humoured, curious, protective of her island',
    scenario: '{{user}} is stranded on the island for a night when a storm rolls in.',
    first_mes:
      '*Marisol holds the lantern higher.* You picked a fine night to wash up, {{user}}. Come in before the wind takes you.',
    mes_example:
      '<START>\n{{user}}: Do you ever get lonely here?\n{{char}}: *She smiles.* The sea talks enough for two.',
    creator_notes: '',
    system_prompt: '',
    alternate_greetings: [
      '*A knock at the door; Marisol opens it.* Another stray? Sit by the fire.',
    ],
    tags: ['fantasy', 'slice-of-life'],
    gender: 'female',
    nsfw: false,
    ...overrides,
  };
}

/** A creator page fixture. */
export function createCreatorProfileFixture(
  overrides: Partial<CreatorProfile> = {},
): CreatorProfile {
  return {
    ...createCreatorFixture(),
    isFollowing: false,
    isSelf: false,
    joinedAt: CREATED,
    ...overrides,
  };
}

/** A card preview fixture: a V2 PNG card with a lorebook Mates keeps but does not use. */
export function createCardPreviewFixture(overrides: Partial<CardPreview> = {}): CardPreview {
  return {
    draft: createMateDraftFixture({ name: 'Seraphina', tags: ['fantasy'] }),
    spec: 'v2',
    creator: 'Anonymous',
    portraitFromCard: true,
    unused: ['Lorebook "Eldoria" (12 entries)'],
    droppedTags: ['forest-guardian'],
    ...overrides,
  };
}

/** A moderation queue row: a mate with two open reports. */
export function createReportedMateFixture(overrides: Partial<ReportedMate> = {}): ReportedMate {
  return {
    mate: {
      ...createMateSummaryFixture({}, 3),
      visibility: 'public',
      moderation: null,
      updatedAt: UPDATED,
    },
    reports: [
      {
        reportId: 'report-2',
        reason: 'underage',
        content: 'The description says she is fifteen.',
        reporter: { creatorId: 'user-7', name: 'Milo', avatar: null },
        createdAt: UPDATED,
      },
      {
        reportId: 'report-1',
        reason: 'inappropriate',
        content: '',
        reporter: null,
        createdAt: CREATED,
      },
    ],
    openReports: 2,
    lastReportedAt: UPDATED,
    ...overrides,
  };
}

/** A review fixture. */
export function createReviewFixture(overrides: Partial<Review> = {}): Review {
  return {
    reviewId: 'review-1',
    mateId: 'mate-1',
    author: { creatorId: 'user-7', name: 'Noor', avatar: null },
    rating: 5,
    content: 'Remembers everything and never breaks character.',
    createdAt: UPDATED,
    ...overrides,
  };
}

/** A detail-page extra-info fixture. */
export function createMateExtraInfoFixture(overrides: Partial<MateExtraInfo> = {}): MateExtraInfo {
  const mate = createMateSummaryFixture();
  return {
    mateId: mate.mateId,
    creator: createCreatorFixture(),
    counters: mate.counters,
    reviewSummary: { average: 4.6, count: 42, distribution: [1, 1, 2, 9, 29] },
    recentReviews: [
      createReviewFixture(),
      createReviewFixture({
        reviewId: 'review-2',
        rating: 4,
        content: 'Lovely, a bit slow to warm up.',
      }),
    ],
    isFavorite: false,
    isFollowingCreator: false,
    ...overrides,
  };
}

/** A signed-in user fixture. */
export function createUserInfoFixture(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    uuid: 'user-1',
    token: 'token-user-1',
    language: 'en',
    email: 'ada@example.com',
    nickname: 'Ada',
    avatar: null,
    nfsw: false,
    tags: [],
    gender: null,
    createdAt: CREATED,
    isAdmin: false,
    hasPassword: true,
    ...overrides,
  };
}

/** A benefits fixture. */
export function createBenefitsFixture(overrides: Partial<UserBenefits> = {}): UserBenefits {
  return { chats: 20, goldCoins: 50, userId: 'user-1', ...overrides };
}

/** A persona fixture. */
export function createPersonaFixture(overrides: Partial<Persona> = {}): Persona {
  return {
    uuid: 'persona-1',
    name: 'Ada',
    description: 'A night-owl engineer who loves old maps.',
    avatar: null,
    isDefault: true,
    createdAt: CREATED,
    updatedAt: UPDATED,
    ...overrides,
  };
}

/** A message fixture. */
export function createMessageFixture(overrides: Partial<Message> = {}): Message {
  return {
    messageId: 'msg-1',
    roomId: 'room-1',
    role: 'mate',
    content:
      "*Lyra Moonwhisper looks up and smiles.* Oh, it's you, Ada. I was hoping you'd come by.",
    status: 'complete',
    createdAt: UPDATED,
    editedAt: null,
    image: null,
    ...overrides,
  };
}

/** A room fixture. */
export function createRoomFixture(overrides: Partial<Room> = {}): Room {
  return {
    roomId: 'room-1',
    mateId: 'mate-1',
    personaId: null,
    createdAt: CREATED,
    updatedAt: UPDATED,
    ...overrides,
  };
}

/** A recent-chats row fixture. */
export function createRoomSummaryFixture(
  overrides: Partial<RoomSummary> = {},
  index = 0,
): RoomSummary {
  const mate = createMateSummaryFixture({}, index);
  return {
    ...createRoomFixture({ roomId: `room-${index + 1}`, mateId: mate.mateId }),
    mate,
    lastMessage: createMessageFixture({
      roomId: `room-${index + 1}`,
      content: 'See you tomorrow, then?',
    }),
    ...overrides,
  };
}

/** A room-info fixture: a short conversation, newest last. */
export function createRoomInfoFixture(overrides: Partial<RoomInfo> = {}): RoomInfo {
  return {
    room: createRoomFixture(),
    mate: createMateFixture(),
    persona: createPersonaFixture(),
    messages: [
      createMessageFixture(),
      createMessageFixture({
        messageId: 'msg-2',
        role: 'user',
        content: 'I brought the map you asked about.',
      }),
      createMessageFixture({
        messageId: 'msg-3',
        content: '*Her eyes light up.* Show me. **Slowly.**',
      }),
    ],
    hasMoreBefore: false,
    readOnly: null,
    ...overrides,
  };
}

/** The tag groups fixture. */
export function createTagGroupsFixture(): TagGroup[] {
  const group = (key: string, label: string, tags: [string, string][]): TagGroup => ({
    key,
    label,
    tags: tags.map(([tagKey, tagLabel]) => ({ key: tagKey, label: tagLabel, group: key })),
  });
  return [
    group('genre', 'Genre', [
      ['fantasy', 'Fantasy'],
      ['sci-fi', 'Sci-fi'],
      ['mystery', 'Mystery'],
      ['horror', 'Horror'],
      ['noir', 'Noir'],
    ]),
    group('mood', 'Mood', [
      ['romance', 'Romance'],
      ['wholesome', 'Wholesome'],
      ['comedy', 'Comedy'],
      ['adventure', 'Adventure'],
    ]),
    group('setting', 'Setting', [
      ['slice-of-life', 'Slice of life'],
      ['science', 'Science'],
    ]),
  ];
}

/** Every tag of {@link createTagGroupsFixture}, flat. */
export function createTagsFixture(): Tag[] {
  return createTagGroupsFixture().flatMap((group) => group.tags);
}

/** Hot search words fixture. */
export function createHotWordsFixture(): HotWord[] {
  return [
    { word: 'vampire', count: 312 },
    { word: 'detective', count: 207 },
    { word: 'space captain', count: 164 },
    { word: 'barista', count: 98 },
  ];
}

/** Trending ranking fixture. */
export function createTrendingFixture(count = 5): TrendingEntry[] {
  return createMateSummariesFixture(count).map((mate, index) => ({
    rank: index + 1,
    mate,
    recentChats: 900 - index * 120,
  }));
}

/** A package fixture. */
export function createPackageFixture(overrides: Partial<Package> = {}): Package {
  return {
    packageId: 'package-plus',
    name: 'Plus',
    description: 'For daily chats.',
    price: { amount: 999, currency: 'USD' },
    period: 'month',
    chats: 3000,
    goldCoins: 200,
    features: ['3,000 messages a month', '200 gold coins for images and voice', 'Longer memory'],
    ...overrides,
  };
}

/** A subscription-info fixture. */
export function createSubscriptionInfoFixture(
  overrides: Partial<SubscriptionInfo> = {},
): SubscriptionInfo {
  return {
    packages: [
      createPackageFixture({
        packageId: 'package-free',
        name: 'Free',
        price: { amount: 0, currency: 'USD' },
        chats: 50,
        goldCoins: 0,
        features: ['50 messages a month'],
      }),
      createPackageFixture(),
    ],
    current: null,
    benefits: createBenefitsFixture(),
    payments: true,
    costs: createFeatureCostsFixture(),
    ...overrides,
  };
}

/** What each feature costs on a server with pictures and voice. */
export function createFeatureCostsFixture(overrides: Partial<FeatureCosts> = {}): FeatureCosts {
  return { chatMessage: 1, picture: 5, voiceClip: 1, generatedCharacter: 1, ...overrides };
}

/** An active monthly plan that renews on 2026-12-20. */
export function createSubscriptionFixture(overrides: Partial<Subscription> = {}): Subscription {
  return {
    packageId: 'package-plus',
    status: 'active',
    startedAt: '2026-10-20T10:00:00.000Z',
    currentPeriodEnd: '2026-12-20T10:00:00.000Z',
    cancelAtPeriodEnd: false,
    ...overrides,
  };
}

/** A checkout at `state` (default `paid`). */
export function createCheckoutStatusFixture(
  overrides: Partial<CheckoutStatus> = {},
): CheckoutStatus {
  return {
    checkoutId: 'cs_test_1',
    packageId: 'package-plus',
    state: 'paid',
    benefits: createBenefitsFixture(),
    ...overrides,
  };
}

/** An AI model list fixture. */
export function createModelsFixture(): AigcModel[] {
  return [
    {
      modelId: 'chat-default',
      name: 'Default chat model',
      kind: 'chat',
      cost: 0,
      isDefault: true,
      engine: 'embedded',
    },
    {
      modelId: 'dreamshaper_8.safetensors [879db523c3]',
      name: 'dreamshaper_8',
      kind: 'image',
      cost: 5,
      isDefault: true,
      engine: 'automatic1111',
      sizes: ['512x512', '768x1024', '1024x768', '1024x1024'],
    },
    { modelId: 'speech-default', name: 'Default voice', kind: 'speech', cost: 1, isDefault: true },
  ];
}

/** An image-job status fixture. */
export function createJobStatusFixture(overrides: Partial<JobStatus> = {}): JobStatus {
  return {
    jobId: 'job-1',
    state: 'succeeded',
    progress: 1,
    images: [createAvatarFixture('Image')],
    error: null,
    createdAt: UPDATED,
    messageId: 'msg-image-1',
    ...overrides,
  };
}

/** A picture message fixture: the job at `state` (default: done, with its picture). */
export function createImageMessageFixture(
  image: Partial<MessageImage> = {},
  overrides: Partial<Message> = {},
): Message {
  const state = image.state ?? 'succeeded';
  return createMessageFixture({
    messageId: 'msg-image-1',
    content: '',
    image: {
      jobId: 'job-1',
      state,
      progress: state === 'succeeded' ? 1 : state === 'running' ? 0.4 : 0,
      url: state === 'succeeded' ? createPortraitFixture('Lyra Moonwhisper') : null,
      prompt: 'Lyra reading by the window at dusk',
      size: '768x1024',
      model: null,
      error: state === 'failed' ? 'The picture engine refused this prompt.' : null,
      sharedUrl: null,
      ...image,
    },
    ...overrides,
  });
}

/** A finished picture of a room, as `GET /room/pictures` lists it. */
export function createRoomPictureFixture(overrides: Partial<RoomPicture> = {}): RoomPicture {
  return {
    messageId: 'msg-image-1',
    roomId: 'room-1',
    url: createPortraitFixture('Lyra Moonwhisper'),
    prompt: 'Lyra reading by the window at dusk',
    size: '768x1024',
    model: null,
    createdAt: UPDATED,
    sharedUrl: null,
    ...overrides,
  };
}

/** `count` finished pictures of room `room-1`, newest first, each with its own prompt and shape. */
export function createRoomPicturesFixture(count = 6): RoomPicture[] {
  const scenes = [
    'Lyra reading by the window at dusk',
    'Lyra on the lighthouse stairs, lantern in hand',
    'Lyra laughing at the harbour market',
    'Lyra asleep over a star chart',
    'Lyra in the rain, hood up, smiling',
    'Lyra sketching the old bridge',
  ];
  const sizes: ImageSize[] = ['768x1024', '1024x768', '512x512'];
  return Array.from({ length: count }, (_, index) =>
    createRoomPictureFixture({
      messageId: `msg-image-${index + 1}`,
      url: createPortraitFixture(`Picture ${index + 1}`),
      prompt: scenes[index % scenes.length]!,
      size: sizes[index % sizes.length]!,
      createdAt: new Date(Date.parse(UPDATED) - index * 3_600_000).toISOString(),
    }),
  );
}

/**
 * A real, playable WAV file as a `data:` URL: `durationMs` of a soft 440 Hz tone, 8 kHz, 16-bit
 * mono, fading in and out. Small enough to inline (16 bytes per millisecond).
 */
export function createAudioFixture(durationMs = 600): string {
  const rate = 8000;
  const samples = Math.max(1, Math.round((rate * durationMs) / 1000));
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i += 1) bytes[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // PCM header size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i += 1) {
    const fade = Math.min(1, i / 400, (samples - i) / 400);
    view.setInt16(
      44 + i * 2,
      Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 6000 * fade),
      true,
    );
  }
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:audio/wav;base64,${btoa(binary)}`;
}

/** A `POST /voice/textToAudio` answer: a real short WAV (see {@link createAudioFixture}). */
export function createAudioClipFixture(overrides: Partial<AudioClip> = {}): AudioClip {
  const durationMs = overrides.durationMs ?? 600;
  return {
    audioUrl: createAudioFixture(durationMs),
    mimeType: 'audio/wav',
    durationMs,
    ...overrides,
  };
}

/** One voice of `GET /voice/voices`. */
export function createVoiceFixture(overrides: Partial<Voice> = {}): Voice {
  return {
    voiceId: 'embedded-slt',
    name: 'Sally',
    gender: 'female',
    language: 'en-US',
    engine: 'embedded',
    ...overrides,
  };
}

/** The voices of a server on its embedded engine, one gold coin per message, no transcription. */
export function createVoiceCatalogFixture(overrides: Partial<VoiceCatalog> = {}): VoiceCatalog {
  return {
    voices: [
      createVoiceFixture(),
      createVoiceFixture({ voiceId: 'embedded-rms', name: 'Robert', gender: 'male' }),
      createVoiceFixture({
        voiceId: 'embedded-awb',
        name: 'Alan',
        gender: 'male',
        language: 'en-GB',
      }),
      createVoiceFixture({ voiceId: 'embedded-kal', name: 'Ken', gender: 'male' }),
    ],
    costPerMessage: 1,
    transcription: false,
    ...overrides,
  };
}

/** The caller's ledger, newest first: a welcome grant, chats and a picture spent, one refunded. */
export function createLedgerFixture(): LedgerEntry[] {
  const rows: Omit<LedgerEntry, 'balance' | 'entryId'>[] = [
    {
      kind: 'grant',
      chats: 50,
      goldCoins: 20,
      reason: 'welcome',
      reference: null,
      createdAt: CREATED,
    },
    {
      kind: 'spend',
      chats: -1,
      goldCoins: 0,
      reason: 'chat',
      reference: { type: 'message', id: 'msg-2', roomId: 'room-1' },
      createdAt: '2026-11-20T18:00:00.000Z',
    },
    {
      kind: 'spend',
      chats: 0,
      goldCoins: -5,
      reason: 'picture',
      reference: { type: 'message', id: 'msg-image-1', roomId: 'room-1' },
      createdAt: '2026-11-20T18:10:00.000Z',
    },
    {
      kind: 'refund',
      chats: 0,
      goldCoins: 5,
      reason: 'refund: picture failed',
      reference: { type: 'message', id: 'msg-image-1', roomId: 'room-1' },
      createdAt: '2026-11-20T18:11:00.000Z',
    },
    {
      kind: 'spend',
      chats: 0,
      goldCoins: -1,
      reason: 'voice',
      reference: { type: 'message', id: 'msg-2', roomId: 'room-1' },
      createdAt: UPDATED,
    },
  ];
  let chats = 0;
  let goldCoins = 0;
  return rows
    .map((row, index) => {
      chats += row.chats;
      goldCoins += row.goldCoins;
      return { ...row, entryId: `entry-${index + 1}`, balance: { chats, goldCoins } };
    })
    .reverse();
}

/** Daily caps: gold coins capped at 20 with 6 spent today, chats free. */
export function createSpendingCapFixture(overrides: Partial<SpendingCap> = {}): SpendingCap {
  return {
    dailyChats: null,
    dailyGoldCoins: 20,
    spentToday: { chats: 1, goldCoins: 6 },
    ...overrides,
  };
}

/** A public-config fixture: both sign-in providers set up. */
export function createPublicConfigFixture(overrides: Partial<PublicConfig> = {}): PublicConfig {
  return {
    productName: 'Mates',
    googleClientId: 'test-client.apps.googleusercontent.com',
    discord: { clientId: '1234567890', redirectUri: 'http://localhost:3000/user/loginDiscord' },
    ...overrides,
  };
}

/** A first and only page of a list: `list` whole, nothing after it. */
export function createPageFixture<T>(list: T[]): Paged<T> {
  return { list, page: 1, pageSize: 20, total: list.length, hasMore: false };
}

/** A memory fixture: a fact the mate wrote from two messages. */
export function createMemoryFixture(overrides: Partial<Memory> = {}): Memory {
  return {
    memoryId: 'memory-1',
    roomId: 'room-1',
    kind: 'fact',
    content: 'Her sister is called Ana.',
    about: 'person',
    pinned: false,
    author: 'mate',
    mateId: null,
    sourceMessageIds: ['msg-2', 'msg-3'],
    needsReview: false,
    createdAt: UPDATED,
    updatedAt: UPDATED,
    ...overrides,
  };
}

/** A chat's memories fixture: a summary, a pinned fact and `facts` more, the writer idle. */
export function createRoomMemoriesFixture(
  overrides: Partial<RoomMemories> = {},
  facts = 3,
): RoomMemories {
  const said = [
    'Her sister is called Ana.',
    'She is afraid of deep water since a boat trip at nine.',
    'She works nights at the observatory.',
    'She promised to bring Lyra a map of the northern coast.',
    'Her cat is called Pepper and hates thunder.',
    'She is learning the cello, badly, and loves it.',
  ];
  return {
    memories: [
      createMemoryFixture({
        memoryId: 'memory-summary',
        kind: 'summary',
        about: 'story',
        content:
          'Ada met Lyra at the lighthouse on a stormy night. They climbed to the lamp room, talked about maps and lost ships, and agreed to look for the wreck of the Halcyon together.',
        sourceMessageIds: ['msg-1', 'msg-2', 'msg-3'],
      }),
      createMemoryFixture({
        memoryId: 'memory-pinned',
        content: 'Ada is allergic to cats; she never says so first.',
        pinned: true,
        author: 'person',
        sourceMessageIds: [],
      }),
      // Newest first, an hour apart; each from one of the room fixture's messages.
      ...Array.from({ length: facts }, (_, index) =>
        createMemoryFixture({
          memoryId: `memory-${index + 1}`,
          content: said[index % said.length]!,
          about: index % 3 === 1 ? 'story' : 'person',
          sourceMessageIds: [`msg-${(index % 3) + 1}`],
          createdAt: new Date(Date.parse(UPDATED) - index * 3_600_000).toISOString(),
          updatedAt: new Date(Date.parse(UPDATED) - index * 3_600_000).toISOString(),
        }),
      ),
    ],
    writer: { state: 'idle', error: null },
    acrossChats: false,
    ...overrides,
  };
}

/** A "What the mate sees" fixture: every part of a prompt, with its tokens. */
export function createPromptViewFixture(overrides: Partial<PromptView> = {}): PromptView {
  const parts: PromptView['parts'] = [
    {
      kind: 'character',
      text: "You are Lyra Moonwhisper in a roleplay chat with Ada. Stay in character; write only Lyra Moonwhisper's words and actions, never Ada's.\n\nAbout Lyra Moonwhisper: A lighthouse keeper who collects maps of coasts that no longer exist.\n\nAlways answer in English.",
      tokens: 61,
      items: 1,
    },
    {
      kind: 'pinned',
      text: '- Ada is allergic to cats; she never says so first.',
      tokens: 14,
      items: 1,
    },
    {
      kind: 'summary',
      text: 'Ada met Lyra at the lighthouse on a stormy night. They climbed to the lamp room, talked about maps and lost ships, and agreed to look for the wreck of the Halcyon together.',
      tokens: 41,
      items: 1,
    },
    {
      kind: 'recalled',
      text: '- Her sister is called Ana.\n- She works nights at the observatory.',
      tokens: 18,
      items: 2,
    },
    {
      kind: 'history',
      text: "Ada: Do you still have the chart of the Halcyon?\nLyra Moonwhisper: *She unrolls a yellowed sheet.* Right here. Your sister Ana would love this.\nAda: Let's go tonight.",
      tokens: 47,
      items: 3,
    },
  ];
  return {
    messageId: 'msg-9',
    parts,
    totalTokens: parts.reduce((sum, part) => sum + part.tokens, 0),
    contextTokens: 4096,
    replyTokens: 512,
    leftOut: 42,
    builtAt: UPDATED,
    rebuilt: false,
    ...overrides,
  };
}

/** A path of a chat fixture: the first path, unless `fork` says where it was branched. */
export function createBranchFixture(overrides: Partial<Branch> = {}): Branch {
  return {
    roomId: 'room-1',
    fork: null,
    messageCount: 3,
    preview:
      "*Lyra Moonwhisper looks up and smiles.* Oh, it's you, Ada. I was hoping you'd come by.",
    createdAt: CREATED,
    updatedAt: UPDATED,
    ...overrides,
  };
}

/**
 * A chat's paths fixture: the first path (`room-1`, messages `msg-1` to `msg-3`), a branch
 * made at its second message (`room-2`), and another at the same message (`room-3`).
 */
export function createRoomBranchesFixture(overrides: Partial<RoomBranches> = {}): RoomBranches {
  return {
    roomId: 'room-1',
    branches: [
      createBranchFixture(),
      createBranchFixture({
        roomId: 'room-2',
        fork: { parentRoomId: 'room-1', parentMessageId: 'msg-2', messageId: 'msg-2-b' },
        messageCount: 4,
        preview: 'Then let us take the boat out tonight, storm or not.',
        createdAt: UPDATED,
      }),
      createBranchFixture({
        roomId: 'room-3',
        fork: { parentRoomId: 'room-1', parentMessageId: 'msg-2', messageId: 'msg-2-c' },
        messageCount: 2,
        preview: 'Ask me again tomorrow.',
        createdAt: UPDATED,
      }),
    ],
    ...overrides,
  };
}

/** An exported chat path fixture, in `format` (Markdown by default). */
export function createChatExportFixture(
  format: ChatExportFormat = 'markdown',
  overrides: Partial<ChatExport> = {},
): ChatExport {
  const files: Record<ChatExportFormat, ChatExport> = {
    markdown: {
      fileName: 'Lyra Moonwhisper - 2026-11-20.md',
      mimeType: 'text/markdown',
      content:
        "# Lyra Moonwhisper and Ada\n\n**Lyra Moonwhisper:** *Lyra Moonwhisper looks up and smiles.* Oh, it's you, Ada.\n\n**Ada:** I brought the map you asked about.\n",
    },
    json: {
      fileName: 'Lyra Moonwhisper - 2026-11-20.json',
      mimeType: 'application/json',
      content: JSON.stringify({ format: 'mates-chat', version: 1, messages: [] }),
    },
    jsonl: {
      fileName: 'Lyra Moonwhisper - 2026-11-20.jsonl',
      mimeType: 'application/jsonl',
      content:
        '{"user_name":"Ada","character_name":"Lyra Moonwhisper","create_date":"2026-11-20T18:30:00.000Z","chat_metadata":{}}\n{"name":"Lyra Moonwhisper","is_user":false,"is_system":false,"send_date":"2026-11-20T18:30:00.000Z","mes":"Oh, it\'s you, Ada.","extra":{}}\n',
    },
  };
  return { ...files[format], ...overrides };
}

/** A message hit fixture: "map" found in a message of Ada's chat with Lyra. */
export function createMessageHitFixture(overrides: Partial<MessageHit> = {}): MessageHit {
  return {
    roomId: 'room-1',
    mate: createMateSummaryFixture(),
    groupName: null,
    message: createMessageFixture({
      messageId: 'msg-2',
      role: 'user',
      content: 'I brought the map you asked about.',
    }),
    snippet: [
      { text: 'I brought the ', match: false },
      { text: 'map', match: true },
      { text: ' you asked about.', match: false },
    ],
    ...overrides,
  };
}

/** A page of message hits fixture: `count` hits in as many chats, newest first. */
export function createMessageHitsFixture(
  count = 3,
  overrides: Partial<MessageHits> = {},
): MessageHits {
  const mates = createMateSummariesFixture(Math.max(count, 1));
  return {
    list: Array.from({ length: count }, (_, index) =>
      createMessageHitFixture({
        roomId: `room-${index + 1}`,
        mate: mates[index]!,
        message: createMessageFixture({
          messageId: `msg-hit-${index + 1}`,
          roomId: `room-${index + 1}`,
          role: index % 2 ? 'mate' : 'user',
          content: `Hit ${index + 1}: the old map of the northern coast.`,
          createdAt: new Date(Date.parse(UPDATED) - index * 86_400_000).toISOString(),
        }),
        snippet: [
          { text: `Hit ${index + 1}: the old `, match: false },
          { text: 'map', match: true },
          { text: ' of the northern coast.', match: false },
        ],
      }),
    ),
    page: 1,
    pageSize: 20,
    hasMore: false,
    ...overrides,
  };
}

/** A group member fixture: the `index`-th sample mate, in the group since the room began. */
export function createGroupMemberFixture(
  overrides: Partial<GroupMember> = {},
  index = 0,
): GroupMember {
  return {
    mate: createMateSummaryFixture({}, index),
    muted: false,
    talkativeness: 0.5,
    joinedAt: CREATED,
    leftAt: null,
    earlierStays: [],
    hidden: false,
    ...overrides,
  };
}

/** A group fixture: the first `count` sample mates around a tavern table. */
export function createRoomGroupFixture(overrides: Partial<RoomGroup> = {}, count = 3): RoomGroup {
  const members = Array.from({ length: count }, (_, index) => createGroupMemberFixture({}, index));
  return {
    name: members.map((member) => member.mate.name.split(' ')[0]).join(', '),
    scenario: 'A crowded tavern on a stormy night; the fire is warm and the stew is late.',
    turnOrder: 'natural',
    members,
    continuesInRow: 0,
    ...overrides,
  };
}

/** A group chat's room-info fixture: three mates answering the person in turn, newest last. */
export function createGroupRoomInfoFixture(
  overrides: Partial<RoomInfo> = {},
  group: RoomGroup = createRoomGroupFixture(),
): RoomInfo {
  const [first, second, third] = group.members.map((member) => member.mate);
  const speak = (messageId: string, index: number, content: string): Message =>
    createMessageFixture({
      messageId,
      content,
      ...(group.members[index] && { speakerId: group.members[index].mate.mateId }),
    });
  return {
    room: createRoomFixture({ mateId: first?.mateId ?? 'mate-1', group }),
    mate: createMateFixture(),
    persona: createPersonaFixture(),
    messages: [
      speak('msg-1', 0, `*${first?.name ?? 'Lyra'} raises a mug.* Look who braved the storm!`),
      createMessageFixture({
        messageId: 'msg-2',
        role: 'user',
        content: `Evening, all. ${second?.name.split(' ')[0] ?? 'Kai'}, is the stew ready yet?`,
      }),
      speak('msg-3', 1, '*Wipes hands on an apron.* Five more minutes. It always is.'),
      speak(
        'msg-4',
        2,
        `*${third?.name ?? 'Noor'} laughs from the corner.* It said that an hour ago.`,
      ),
    ],
    hasMoreBefore: false,
    readOnly: null,
    ...overrides,
  };
}

/**
 * A group chat's memories fixture: the group's summary and a fact everyone heard (shared), then
 * two facts of each member's own, newest first, the writer idle.
 */
export function createGroupMemoriesFixture(
  overrides: Partial<RoomMemories> = {},
  group: RoomGroup = createRoomGroupFixture(),
): RoomMemories {
  const own = [
    ['Ada promised to show her the old lighthouse maps.', 'She told Ada the lamp has a name.'],
    ['Ada likes her stew with extra pepper.', 'He owes Ada a second bowl.'],
    ['Ada asked about the wreck of the Halcyon.', 'She never tells Ada where her scar is from.'],
  ];
  const at = (hours: number) => new Date(Date.parse(UPDATED) - hours * 3_600_000).toISOString();
  return {
    memories: [
      createMemoryFixture({
        memoryId: 'memory-group-summary',
        kind: 'summary',
        about: 'story',
        content:
          'Ada came in from the storm to the tavern. Lyra raised a mug, Kai promised stew, and the captain laughed from the corner.',
        sourceMessageIds: ['msg-1', 'msg-2', 'msg-3'],
      }),
      createMemoryFixture({
        memoryId: 'memory-group-shared',
        content: 'Ada arrived soaked from the storm.',
        sourceMessageIds: ['msg-2'],
      }),
      ...group.members.flatMap((member, index) =>
        (own[index % own.length] ?? []).map((content, nth) =>
          createMemoryFixture({
            memoryId: `memory-${member.mate.mateId}-${nth + 1}`,
            content,
            about: nth === 0 ? 'person' : 'story',
            mateId: member.mate.mateId,
            sourceMessageIds: [`msg-${index === 0 ? 1 : index + 2}`],
            createdAt: at(index * 2 + nth + 1),
            updatedAt: at(index * 2 + nth + 1),
          }),
        ),
      ),
    ],
    writer: { state: 'idle', error: null },
    acrossChats: false,
    ...overrides,
  };
}

/**
 * A "Download my data" export fixture: a zip ready to download, unless `overrides` say
 * otherwise (`{ state: 'running', progress: 0.4, … }` while it is built).
 */
export function createDataExportFixture(overrides: Partial<DataExport> = {}): DataExport {
  return {
    exportId: 'export-1',
    state: 'ready',
    progress: 1,
    createdAt: '2026-11-20T10:00:00.000Z',
    readyAt: '2026-11-20T10:02:00.000Z',
    expiresAt: '2026-11-27T10:02:00.000Z',
    size: 48_213_504,
    downloadUrl: '/api/user/exportDownload?exportId=export-1&expires=1795000000&signature=fixture',
    error: null,
    ...overrides,
  };
}

/** What deleting an account would delete: a person with a password, chats and two public mates. */
export function createDeletionPreviewFixture(
  overrides: Partial<DeletionPreview> = {},
): DeletionPreview {
  return {
    proofs: ['password'],
    chats: 12,
    personas: 2,
    pictures: 7,
    voiceClips: 3,
    publicMates: 2,
    privateMates: 1,
    paidPlan: false,
    ...overrides,
  };
}
