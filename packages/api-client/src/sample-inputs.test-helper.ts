import type { EndpointInput, EndpointPath } from './endpoints';

type InputCase<P extends EndpointPath> = [EndpointInput<P>] extends [void]
  ? undefined
  : Exclude<EndpointInput<P>, void>;

/** One valid input per call, typed against the contract: used by the client and MSW tests. */
export const SAMPLE_INPUTS: { [P in EndpointPath]: InputCase<P> } = {
  '/mate/recommend': { tags: ['romance', 'fantasy'], gender: 'female', page: 2, pageSize: 10 },
  '/mate/getMateDetail': { mateId: 'mate-1' },
  '/mate/mateExtraInfo': { mateId: 'mate-1' },
  '/mate/search': { keyword: 'elf mage', sort: 'popular', page: 1 },
  '/mate/feedback': { mateId: 'mate-1', reason: 'broken', content: 'Greeting is cut off' },
  '/mate/hotWords': undefined,
  '/room/createRoom': { mateId: 'mate-1', personaId: 'persona-1' },
  '/room/roomList': { page: 1, pageSize: 20 },
  '/room/roomInfo': { roomId: 'room-1', before: 'msg-9', pageSize: 50 },
  '/room/deleteRoom': { roomId: 'room-1' },
  '/user/login': { email: 'ada@example.com', password: 'correct horse' },
  '/user/loginGG': { credential: 'eyJhbGciOiJSUzI1NiJ9.e30.sig' },
  '/user/loginDiscord': { code: 'discord-code' },
  '/user/benefits': undefined,
  '/subscription/info': undefined,
  '/user/personas': undefined,
  '/user/saveOrUpdatePersona': { name: 'Captain', description: 'A tired starship captain.' },
  '/user/setDefaultPersona': { uuid: 'persona-1' },
  '/user/deleteDefaultPersona': { uuid: 'persona-1' },
  '/user/changePassword': { oldPassword: 'old secret', newPassword: 'new secret' },
  '/user/updateLange': { language: 'es' },
  '/user/updateTags': { tags: ['romance'], gender: null, nfsw: false },
  '/user/favorites': undefined,
  '/user/doFavorite': { mateId: 'mate-1' },
  '/room/createImage': { roomId: 'room-1', prompt: 'a lighthouse at dusk', size: '1024x1024' },
  '/room/checkJobStatus': { jobId: 'job-1' },
  '/girl/chat/send': { roomId: 'room-1', content: 'Hello there' },
  '/room/deleteMessage': { roomId: 'room-1', messageId: 'msg-1' },
  '/room/editMessage': { roomId: 'room-1', messageId: 'msg-1', content: 'Hello again' },
  '/voice/textToAudio': { messageId: 'msg-2' },
  '/user/register': { email: 'new@example.com', password: 'hunter22' },
  '/user/verify/status': { email: 'new@example.com', verifyTicket: 'ticket-1' },
  '/user/logout': undefined,
  '/mate/review': { mateId: 'mate-1', rating: 5, content: 'Wonderful storyteller.' },
  '/mate/followCreator': { creatorId: 'creator-1' },
  '/mate/followList': undefined,
  '/mate/trendingRank': undefined,
  '/girl/chat/getInspiration': { roomId: 'room-1' },
  '/user/feedback': { category: 'idea', content: 'Dark mode for the editor, please.' },
  '/aigc/models': undefined,
  '/speech/link': { messageId: 'msg-2' },
  '/extra/tags': undefined,
  '/extra/tagsMap': undefined,
  '/extra/publicConfig': undefined,
  '/mate/importCard': {
    card: { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Imported' } },
  },
  '/mate/exportCard': { mateId: 'mate-1', format: 'png' },
  '/mate/generateRole': { idea: 'A grumpy lighthouse keeper who secretly writes poetry' },
  '/mate/saveMate': {
    name: 'Quinn',
    tagline: 'A radio operator.',
    description: 'Talks to ships.',
    personality: 'calm',
    scenario: 'A foggy night.',
    first_mes: 'Go ahead.',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    alternate_greetings: [],
    tags: ['mystery'],
    gender: 'female',
    nsfw: false,
  },
  '/mate/myMates': { visibility: 'draft', page: 1 },
  '/mate/setVisibility': { mateId: 'mate-1', visibility: 'public' },
  '/mate/duplicateMate': { mateId: 'mate-1' },
  '/mate/deleteMate': { mateId: 'mate-1' },
  '/mate/portraitChoices': { seed: 'Quinn' },
  '/mate/setPortrait': { mateId: 'mate-1', choiceId: 'notionists:Quinn:2' },
  '/mate/previewCard': { card: { name: 'Quinn' } },
  '/mate/creatorInfo': { creatorId: 'creator-1' },
  '/mate/creatorMates': { creatorId: 'creator-1', page: 2 },
  '/admin/reports': { state: 'hidden' },
  '/admin/hideMate': { mateId: 'mate-1', reason: 'underage', note: 'Minors are not allowed.' },
  '/admin/restoreMate': { mateId: 'mate-1' },
  '/admin/dismissReports': { mateId: 'mate-1' },
  '/room/cancelImage': { jobId: 'job-1' },
  '/room/pictures': { roomId: 'room-1', page: 1 },
  '/room/sharePicture': { messageId: 'msg-image-1', shared: true },
  '/voice/voices': undefined,
  '/user/ledger': { page: 2, pageSize: 20 },
  '/user/spendingCap': undefined,
  '/user/setSpendingCap': { dailyChats: null, dailyGoldCoins: 20 },
  '/subscription/checkout': { packageId: 'pack-coins-200' },
  '/subscription/checkoutStatus': { checkoutId: 'cs_test_1' },
  '/subscription/cancel': undefined,
  '/subscription/resume': undefined,
  '/voice/transcribe': { audio: 'UklGRg==', mimeType: 'audio/webm;codecs=opus' },
};

/** The query string the client must send for a GET input: arrays comma-joined, nulls left out. */
export function expectedQuery(input: object | undefined): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(input ?? {})) {
    if (value === undefined || value === null) continue;
    query[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return query;
}
