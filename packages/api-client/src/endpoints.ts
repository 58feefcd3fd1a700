import type { Empty, Paged } from './types/common';
import type {
  DeleteMemoryPayload,
  Memory,
  PromptView,
  PromptViewQuery,
  RoomMemories,
  RoomMemoriesQuery,
  SaveMemoryPayload,
  SetMemoryAcrossChatsPayload,
  WriteMemoriesPayload,
} from './types/memory';
import type { BranchPayload, ChatExport, ExportChatQuery, RoomBranches } from './types/branch';
import type { MessageHits, SearchMessagesQuery } from './types/search';
import type { CallTicket, StartCallPayload } from './types/call';
import type {
  DataExport,
  DataExportStatus,
  DeleteAccountPayload,
  DeletionPreview,
  ExportTicket,
  ExportTicketPayload,
} from './types/privacy';
import type {
  CreateGroupPayload,
  GroupMemberPayload,
  RoomGroup,
  UpdateGroupMemberPayload,
  UpdateGroupPayload,
} from './types/group';
import type {
  ChangePasswordPayload,
  ForgotPasswordPayload,
  ResetPasswordPayload,
  Credentials,
  DiscordLoginQuery,
  GoogleLoginPayload,
  Persona,
  PersonaQuery,
  RegisterResult,
  SavePersonaPayload,
  UpdateLanguageQuery,
  UpdateNicknamePayload,
  UpdateTagsPayload,
  UserBenefits,
  UserFeedbackPayload,
  UserInfo,
  VerifyStatusPayload,
  VerifyStatusResult,
} from './types/user';
import type {
  FavoriteState,
  FollowCreatorQuery,
  FollowState,
  FollowedCreator,
  GenerateRolePayload,
  MateDraft,
  SaveMatePayload,
  HotWord,
  Mate,
  MateExtraInfo,
  MateFeedbackPayload,
  MateQuery,
  MateSummary,
  RecommendQuery,
  Review,
  ReviewPayload,
  SearchQuery,
  Tag,
  TagGroup,
  TrendingEntry,
  PublicConfig,
  MyMatesQuery,
  OwnMateSummary,
  SetVisibilityPayload,
  PortraitChoicesQuery,
  PortraitChoice,
  SetPortraitPayload,
  CreatorMatesQuery,
  CreatorProfile,
} from './types/mate';
import type {
  HideMatePayload,
  HideMateResult,
  ModerateMateQuery,
  ReportQueueQuery,
  ReportedMate,
} from './types/moderation';
import type {
  CreateRoomQuery,
  DeleteMessageQuery,
  EditMessageQuery,
  ChooseSwipePayload,
  SetRoomPersonaPayload,
  Message,
  Room,
  RoomInfo,
  RoomInfoQuery,
  RoomListQuery,
  RoomQuery,
  RoomSummary,
} from './types/room';
import type { ChatSendPayload, Inspiration, InspirationPayload } from './types/chat';
import type {
  AigcModel,
  AudioClip,
  CreateImagePayload,
  ImageJobRef,
  JobStatus,
  CancelImagePayload,
  JobStatusQuery,
  RoomPicture,
  RoomPicturesQuery,
  SharePicturePayload,
  SpeechLink,
  SpeechLinkPayload,
  TextToAudioPayload,
  TranscribePayload,
  Transcription,
  VoiceCatalog,
} from './types/media';
import type {
  Checkout,
  CheckoutPayload,
  CheckoutStatus,
  CheckoutStatusQuery,
  Subscription,
  SubscriptionInfo,
} from './types/subscription';
import type { LedgerEntry, LedgerQuery, SetSpendingCapPayload, SpendingCap } from './types/ledger';
import type { CardFile, CardPreview, ExportCardQuery, ImportCardPayload } from './types/card';

/** An HTTP method the API uses: GET sends its input as a query string, POST as JSON. */
export type HttpMethod = 'GET' | 'POST';

interface Get<I, O> {
  method: 'GET';
  input: I;
  output: O;
}
interface Post<I, O> {
  method: 'POST';
  input: I;
  output: O;
}

/**
 * Every call of docs/product.md (calls): path → method, input (query or JSON body; `void` for none)
 * and output (the envelope's `d`). The server implements exactly these.
 */
export interface Endpoints {
  '/mate/recommend': Get<RecommendQuery | void, Paged<MateSummary>>;
  '/mate/getMateDetail': Get<MateQuery, Mate>;
  '/mate/mateExtraInfo': Get<MateQuery, MateExtraInfo>;
  '/mate/search': Get<SearchQuery, Paged<MateSummary>>;
  '/mate/feedback': Post<MateFeedbackPayload, Empty>;
  '/mate/hotWords': Get<void, HotWord[]>;
  '/room/createRoom': Get<CreateRoomQuery, Room>;
  '/room/roomList': Get<RoomListQuery | void, Paged<RoomSummary>>;
  '/room/roomInfo': Get<RoomInfoQuery, RoomInfo>;
  '/room/deleteRoom': Get<RoomQuery, Empty>;
  '/user/login': Post<Credentials, UserInfo>;
  '/user/loginGG': Post<GoogleLoginPayload, UserInfo>;
  '/user/loginDiscord': Get<DiscordLoginQuery, UserInfo>;
  '/user/benefits': Get<void, UserBenefits>;
  '/subscription/info': Get<void, SubscriptionInfo>;
  '/user/personas': Get<void, Persona[]>;
  '/user/saveOrUpdatePersona': Post<SavePersonaPayload, Persona>;
  '/user/setDefaultPersona': Get<PersonaQuery, Persona>;
  '/user/deleteDefaultPersona': Get<PersonaQuery, Empty>;
  '/user/changePassword': Post<ChangePasswordPayload, Empty>;
  '/user/updateLange': Get<UpdateLanguageQuery, Empty>;
  '/user/updateTags': Post<UpdateTagsPayload, UserInfo>;
  '/user/favorites': Get<void, MateSummary[]>;
  '/user/doFavorite': Get<MateQuery, FavoriteState>;
  '/room/createImage': Post<CreateImagePayload, ImageJobRef>;
  '/room/checkJobStatus': Get<JobStatusQuery, JobStatus>;
  '/girl/chat/send': Post<ChatSendPayload, void>;
  '/room/deleteMessage': Get<DeleteMessageQuery, Empty>;
  '/room/editMessage': Get<EditMessageQuery, Message>;
  '/voice/textToAudio': Post<TextToAudioPayload, AudioClip>;
  '/user/register': Post<Credentials, RegisterResult>;
  '/user/verify/status': Post<VerifyStatusPayload, VerifyStatusResult>;
  '/user/logout': Post<void, Empty>;
  '/mate/review': Post<ReviewPayload, Review>;
  '/mate/followCreator': Get<FollowCreatorQuery, FollowState>;
  '/mate/followList': Get<void, FollowedCreator[]>;
  '/mate/trendingRank': Get<void, TrendingEntry[]>;
  '/girl/chat/getInspiration': Post<InspirationPayload, Inspiration>;
  '/user/feedback': Post<UserFeedbackPayload, Empty>;
  '/aigc/models': Get<void, AigcModel[]>;
  '/speech/link': Post<SpeechLinkPayload, SpeechLink>;
  '/extra/tags': Get<void, Tag[]>;
  '/extra/tagsMap': Get<void, TagGroup[]>;
  // Beyond the specification: Character Card V2 import and export of the caller's own mates.
  '/mate/importCard': Post<ImportCardPayload, Mate>;
  '/mate/exportCard': Get<ExportCardQuery, CardFile>;
  // Beyond the specification: role generation for /generate, and saving the caller's own mates.
  '/mate/generateRole': Post<GenerateRolePayload, MateDraft>;
  '/mate/saveMate': Post<SaveMatePayload, Mate>;
  '/extra/publicConfig': Get<void, PublicConfig>;
  // Beyond the specification: the creation studio — the caller's own mates, their portraits,
  // a preview of a card before importing it, and creator pages.
  '/mate/myMates': Get<MyMatesQuery, Paged<OwnMateSummary>>;
  '/mate/setVisibility': Post<SetVisibilityPayload, Mate>;
  '/mate/duplicateMate': Post<MateQuery, Mate>;
  '/mate/deleteMate': Post<MateQuery, Empty>;
  '/mate/portraitChoices': Get<PortraitChoicesQuery, PortraitChoice[]>;
  '/mate/setPortrait': Post<SetPortraitPayload, Mate>;
  '/mate/previewCard': Post<ImportCardPayload, CardPreview>;
  '/mate/creatorInfo': Get<FollowCreatorQuery, CreatorProfile>;
  '/mate/creatorMates': Get<CreatorMatesQuery, Paged<MateSummary>>;
  // Beyond the specification: the moderation queue (administrators only, else 4003).
  '/admin/reports': Get<ReportQueueQuery, Paged<ReportedMate>>;
  '/admin/hideMate': Post<HideMatePayload, HideMateResult>;
  '/admin/restoreMate': Post<ModerateMateQuery, Empty>;
  '/admin/dismissReports': Post<ModerateMateQuery, Empty>;
  // Beyond the specification: stopping a picture that is queued or being drawn.
  '/room/cancelImage': Post<CancelImagePayload, JobStatus>;
  // Beyond the specification: a room's pictures for /chat-profile, and sharing one publicly.
  '/room/pictures': Get<RoomPicturesQuery, Paged<RoomPicture>>;
  '/room/sharePicture': Post<SharePicturePayload, RoomPicture>;
  // Beyond the specification: the voices to choose from, and speech to text for the composer.
  '/voice/voices': Get<void, VoiceCatalog>;
  '/voice/transcribe': Post<TranscribePayload, Transcription>;
  // Beyond the specification: every movement of the caller's chats and gold coins, and caps.
  '/user/ledger': Get<LedgerQuery | void, Paged<LedgerEntry>>;
  '/user/spendingCap': Get<void, SpendingCap>;
  '/user/setSpendingCap': Post<SetSpendingCapPayload, SpendingCap>;
  // Beyond the specification: buying packages through the payment provider, and the plan.
  '/subscription/checkout': Post<CheckoutPayload, Checkout>;
  '/subscription/checkoutStatus': Get<CheckoutStatusQuery, CheckoutStatus>;
  '/subscription/cancel': Post<void, Subscription>;
  '/subscription/resume': Post<void, Subscription>;
  // Beyond the specification: a forgotten password, reset through a mailed link.
  '/user/forgotPassword': Post<ForgotPasswordPayload, Empty>;
  '/user/resetPassword': Post<ResetPasswordPayload, Empty>;
  // Beyond the specification: versions of a message (alternate greetings, kept regenerations).
  '/room/chooseSwipe': Post<ChooseSwipePayload, Message>;
  // Beyond the specification: the persona played in one chat, switched from the chat.
  '/room/setPersona': Post<SetRoomPersonaPayload, Room>;
  // Beyond the specification: the public name, chosen by its owner (never the e-mail's).
  '/user/updateNickname': Post<UpdateNicknamePayload, UserInfo>;
  // Beyond the specification: what a mate remembers of a chat, and what its last reply saw.
  '/room/memories': Get<RoomMemoriesQuery, RoomMemories>;
  '/room/saveMemory': Post<SaveMemoryPayload, Memory>;
  '/room/deleteMemory': Post<DeleteMemoryPayload, Empty>;
  '/room/setMemoryAcrossChats': Post<SetMemoryAcrossChatsPayload, RoomMemories>;
  '/room/writeMemories': Post<WriteMemoriesPayload, RoomMemories>;
  '/room/promptView': Get<PromptViewQuery, PromptView>;
  // Beyond the specification: branches of a chat ("Branch from here"), and a path exported.
  '/room/branch': Post<BranchPayload, Room>;
  '/room/branches': Get<RoomQuery, RoomBranches>;
  '/room/exportChat': Get<ExportChatQuery, ChatExport>;
  // Beyond the specification: words found in any message of the caller's chats.
  '/room/searchMessages': Get<SearchMessagesQuery, MessageHits>;
  // Beyond the specification: "Your data": download everything, close the account.
  '/user/exportData': Post<void, DataExport>;
  '/user/exportStatus': Get<void, DataExportStatus>;
  '/user/exportTicket': Post<ExportTicketPayload, ExportTicket>;
  '/user/deletionPreview': Get<void, DeletionPreview>;
  '/user/deleteAccount': Post<DeleteAccountPayload, Empty>;
  // Beyond the specification: group chats.
  '/room/createGroup': Post<CreateGroupPayload, Room>;
  '/room/updateGroup': Post<UpdateGroupPayload, RoomGroup>;
  '/room/addGroupMember': Post<GroupMemberPayload, RoomGroup>;
  '/room/removeGroupMember': Post<GroupMemberPayload, RoomGroup>;
  '/room/updateGroupMember': Post<UpdateGroupMemberPayload, RoomGroup>;
  // Beyond the specification: a voice call (its socket: see types/call.ts).
  '/call/start': Post<StartCallPayload, CallTicket>;
}

/** The path of a call, e.g. `/mate/getMateDetail`. */
export type EndpointPath = keyof Endpoints;

/** The input of a call: its query or JSON body. */
export type EndpointInput<P extends EndpointPath> = Endpoints[P]['input'];

/** The output of a call: the envelope's `d`. */
export type EndpointOutput<P extends EndpointPath> = Endpoints[P]['output'];

/** The HTTP method of every call, at run time (in the order of docs/product.md, calls). */

/**
 * Every call at run time, in the order of docs/product.md (then the extensions): its method and
 * whether it takes input.
 */
export const ENDPOINTS = {
  '/mate/recommend': { method: 'GET', hasInput: true },
  '/mate/getMateDetail': { method: 'GET', hasInput: true },
  '/mate/mateExtraInfo': { method: 'GET', hasInput: true },
  '/mate/search': { method: 'GET', hasInput: true },
  '/mate/feedback': { method: 'POST', hasInput: true },
  '/mate/hotWords': { method: 'GET', hasInput: false },
  '/room/createRoom': { method: 'GET', hasInput: true },
  '/room/roomList': { method: 'GET', hasInput: true },
  '/room/roomInfo': { method: 'GET', hasInput: true },
  '/room/deleteRoom': { method: 'GET', hasInput: true },
  '/user/login': { method: 'POST', hasInput: true },
  '/user/loginGG': { method: 'POST', hasInput: true },
  '/user/loginDiscord': { method: 'GET', hasInput: true },
  '/user/benefits': { method: 'GET', hasInput: false },
  '/subscription/info': { method: 'GET', hasInput: false },
  '/user/personas': { method: 'GET', hasInput: false },
  '/user/saveOrUpdatePersona': { method: 'POST', hasInput: true },
  '/user/setDefaultPersona': { method: 'GET', hasInput: true },
  '/user/deleteDefaultPersona': { method: 'GET', hasInput: true },
  '/user/changePassword': { method: 'POST', hasInput: true },
  '/user/updateLange': { method: 'GET', hasInput: true },
  '/user/updateTags': { method: 'POST', hasInput: true },
  '/user/favorites': { method: 'GET', hasInput: false },
  '/user/doFavorite': { method: 'GET', hasInput: true },
  '/room/createImage': { method: 'POST', hasInput: true },
  '/room/checkJobStatus': { method: 'GET', hasInput: true },
  '/girl/chat/send': { method: 'POST', hasInput: true },
  '/room/deleteMessage': { method: 'GET', hasInput: true },
  '/room/editMessage': { method: 'GET', hasInput: true },
  '/voice/textToAudio': { method: 'POST', hasInput: true },
  '/user/register': { method: 'POST', hasInput: true },
  '/user/verify/status': { method: 'POST', hasInput: true },
  '/user/logout': { method: 'POST', hasInput: false },
  '/mate/review': { method: 'POST', hasInput: true },
  '/mate/followCreator': { method: 'GET', hasInput: true },
  '/mate/followList': { method: 'GET', hasInput: false },
  '/mate/trendingRank': { method: 'GET', hasInput: false },
  '/girl/chat/getInspiration': { method: 'POST', hasInput: true },
  '/user/feedback': { method: 'POST', hasInput: true },
  '/aigc/models': { method: 'GET', hasInput: false },
  '/speech/link': { method: 'POST', hasInput: true },
  '/extra/tags': { method: 'GET', hasInput: false },
  '/extra/tagsMap': { method: 'GET', hasInput: false },
  '/mate/importCard': { method: 'POST', hasInput: true },
  '/mate/exportCard': { method: 'GET', hasInput: true },
  '/mate/generateRole': { method: 'POST', hasInput: true },
  '/mate/saveMate': { method: 'POST', hasInput: true },
  '/extra/publicConfig': { method: 'GET', hasInput: false },
  '/mate/myMates': { method: 'GET', hasInput: true },
  '/mate/setVisibility': { method: 'POST', hasInput: true },
  '/mate/duplicateMate': { method: 'POST', hasInput: true },
  '/mate/deleteMate': { method: 'POST', hasInput: true },
  '/mate/portraitChoices': { method: 'GET', hasInput: true },
  '/mate/setPortrait': { method: 'POST', hasInput: true },
  '/mate/previewCard': { method: 'POST', hasInput: true },
  '/mate/creatorInfo': { method: 'GET', hasInput: true },
  '/mate/creatorMates': { method: 'GET', hasInput: true },
  '/admin/reports': { method: 'GET', hasInput: true },
  '/admin/hideMate': { method: 'POST', hasInput: true },
  '/admin/restoreMate': { method: 'POST', hasInput: true },
  '/admin/dismissReports': { method: 'POST', hasInput: true },
  '/room/cancelImage': { method: 'POST', hasInput: true },
  '/room/pictures': { method: 'GET', hasInput: true },
  '/room/sharePicture': { method: 'POST', hasInput: true },
  '/voice/voices': { method: 'GET', hasInput: false },
  '/voice/transcribe': { method: 'POST', hasInput: true },
  '/user/ledger': { method: 'GET', hasInput: true },
  '/user/spendingCap': { method: 'GET', hasInput: false },
  '/user/setSpendingCap': { method: 'POST', hasInput: true },
  '/subscription/checkout': { method: 'POST', hasInput: true },
  '/subscription/checkoutStatus': { method: 'GET', hasInput: true },
  '/subscription/cancel': { method: 'POST', hasInput: false },
  '/subscription/resume': { method: 'POST', hasInput: false },
  '/user/forgotPassword': { method: 'POST', hasInput: true },
  '/user/resetPassword': { method: 'POST', hasInput: true },
  '/room/chooseSwipe': { method: 'POST', hasInput: true },
  '/room/setPersona': { method: 'POST', hasInput: true },
  '/user/updateNickname': { method: 'POST', hasInput: true },
  '/room/memories': { method: 'GET', hasInput: true },
  '/room/saveMemory': { method: 'POST', hasInput: true },
  '/room/deleteMemory': { method: 'POST', hasInput: true },
  '/room/setMemoryAcrossChats': { method: 'POST', hasInput: true },
  '/room/writeMemories': { method: 'POST', hasInput: true },
  '/room/promptView': { method: 'GET', hasInput: true },
  '/room/branch': { method: 'POST', hasInput: true },
  '/room/branches': { method: 'GET', hasInput: true },
  '/room/exportChat': { method: 'GET', hasInput: true },
  '/room/searchMessages': { method: 'GET', hasInput: true },
  '/user/exportData': { method: 'POST', hasInput: false },
  '/user/exportStatus': { method: 'GET', hasInput: false },
  '/user/exportTicket': { method: 'POST', hasInput: true },
  '/user/deletionPreview': { method: 'GET', hasInput: false },
  '/user/deleteAccount': { method: 'POST', hasInput: true },
  '/room/createGroup': { method: 'POST', hasInput: true },
  '/room/updateGroup': { method: 'POST', hasInput: true },
  '/room/addGroupMember': { method: 'POST', hasInput: true },
  '/room/removeGroupMember': { method: 'POST', hasInput: true },
  '/room/updateGroupMember': { method: 'POST', hasInput: true },
  '/call/start': { method: 'POST', hasInput: true },
} as const satisfies {
  [P in EndpointPath]: {
    method: Endpoints[P]['method'];
    hasInput: [EndpointInput<P>] extends [void] ? false : true;
  };
};

/** Every call path, in the order of {@link ENDPOINTS}. */
export const ENDPOINT_PATHS = Object.keys(ENDPOINTS) as EndpointPath[];
