export { createApiClient } from './client';
export { createDataLineParser } from './stream/data-line-parser';
export { ENDPOINTS, ENDPOINT_PATHS } from './endpoints';
export { ENVELOPE_CODES } from './types/envelope';
export { GENDERS } from './types/common';
export {
  ALTERNATE_GREETINGS_LIMIT,
  MATE_FEEDBACK_REASONS,
  MATE_TAGS_LIMIT,
  MATE_TEXT_LIMITS,
  MATE_VISIBILITIES,
  REGENERABLE_FIELDS,
  ROLE_DRAFT_COST_CHATS,
  SEARCH_SORTS,
} from './types/mate';
export { REPORT_QUEUE_STATES } from './types/moderation';
export { JOB_STATES, VOICE_SAMPLE_MAX } from './types/media';
export { NICKNAME_MAX_LENGTH, USER_FEEDBACK_CATEGORIES } from './types/user';
export { LEDGER_KINDS } from './types/ledger';
export { CHECKOUT_STATES } from './types/subscription';
export { MESSAGE_ROLES, MESSAGE_STATUSES } from './types/room';
export { CHAT_EXPORT_FORMATS } from './types/branch';
export {
  ACCOUNT_PROOFS,
  DATA_EXPORT_STATES,
  EXPORT_TICKET_SECONDS,
  PUBLIC_MATES_CHOICES,
} from './types/privacy';
export { DEFAULT_TALKATIVENESS, GROUP_LIMITS, GROUP_TURN_ORDERS } from './types/group';
export { CALL_AUDIO, CALL_END_REASONS, CALL_TRANSCRIBERS } from './types/call';
export {
  MEMORIES_PER_ROOM_MAX,
  MEMORY_KINDS,
  MEMORY_SUBJECTS,
  MEMORY_TEXT_MAX,
  PROMPT_PART_KINDS,
} from './types/memory';
export { CARD_FORMATS, CARD_SOURCE_SPECS, CARD_SPECS } from './types/card';
export { callSocketUrl, openCallSocket, parseCallServerMessage } from './call/call-socket';
export { encodeWav } from './call/wav';
export { ApiError } from './errors/api-error';
export { SessionExpiredError, SESSION_EXPIRED_MESSAGE } from './errors/session-expired-error';
export { NetworkError } from './errors/network-error';
export { StreamParseError } from './errors/stream-parse-error';

export type {
  ApiClient,
  ApiClientOptions,
  ApiGroup,
  ApiGroupMethods,
  CallOptions,
  ChatSendMethod,
  ChatSendOptions,
  EndpointMethod,
  GroupOf,
  MethodNameOf,
  QueryValue,
  RequestOptions,
} from './client-types';
export type { DataLineParser, DataLineParserCallbacks } from './stream/data-line-parser';
export type {
  CallSocket,
  CallSocketClose,
  CallSocketOptions,
  CallWebSocketConstructor,
  CallWebSocketLike,
} from './call/call-socket';
export type {
  Endpoints,
  EndpointInput,
  EndpointOutput,
  EndpointPath,
  HttpMethod,
} from './endpoints';
export type { ApiErrorOptions } from './errors/api-error';
export type { NetworkErrorOptions } from './errors/network-error';
export type { Envelope } from './types/envelope';
export type { Empty, Gender, IsoDateTime, LanguageCode, PageQuery, Paged } from './types/common';
export type {
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
  UserFeedbackCategory,
  UserFeedbackPayload,
  UserInfo,
  VerifyStatusPayload,
  VerifyStatusResult,
} from './types/user';
export type {
  Creator,
  CreatorMatesQuery,
  CreatorProfile,
  CreatorSummary,
  FavoriteState,
  FollowCreatorQuery,
  FollowState,
  FollowedCreator,
  GenerateRolePayload,
  HotWord,
  Mate,
  MateCounters,
  MateDraft,
  MateExtraInfo,
  MateFeedbackPayload,
  MateFeedbackReason,
  MateModeration,
  MateQuery,
  MateSummary,
  MateTextField,
  MateVisibility,
  MyMatesQuery,
  OwnMateSummary,
  PortraitChoice,
  PortraitChoicesQuery,
  RegenerableField,
  SetPortraitPayload,
  SetVisibilityPayload,
  PublicConfig,
  RecommendQuery,
  Review,
  ReviewPayload,
  ReviewSummary,
  SaveMatePayload,
  SearchQuery,
  SearchSort,
  Tag,
  TagGroup,
  TrendingEntry,
} from './types/mate';
export type {
  CreateRoomQuery,
  DeleteMessageQuery,
  EditMessageQuery,
  ChooseSwipePayload,
  SetRoomPersonaPayload,
  MessageSwipes,
  Message,
  MessageRole,
  MessageStatus,
  Room,
  RoomInfo,
  RoomInfoQuery,
  RoomListQuery,
  RoomQuery,
  RoomSummary,
} from './types/room';
export type { MessageHit, MessageHits, SearchMessagesQuery, SnippetPart } from './types/search';
export type {
  CallBargeIn,
  CallClientMessage,
  CallEndReason,
  CallEnded,
  CallError,
  CallHangUp,
  CallMute,
  CallReady,
  CallReplyEnd,
  CallReplyStart,
  CallReplyText,
  CallSentence,
  CallServerMessage,
  CallText,
  CallTicket,
  CallTranscriber,
  CallTranscribing,
  CallTranscript,
  MessageCall,
  StartCallPayload,
} from './types/call';
export type {
  AccountProof,
  DataExport,
  DataExportState,
  DataExportStatus,
  DeleteAccountPayload,
  DeletionPreview,
  ExportTicket,
  ExportTicketPayload,
  PublicMatesChoice,
} from './types/privacy';
export type {
  CreateGroupPayload,
  GroupMember,
  GroupMemberPayload,
  GroupStay,
  GroupTurnOrder,
  RoomGroup,
  UpdateGroupMemberPayload,
  UpdateGroupPayload,
} from './types/group';
export type {
  Branch,
  BranchFork,
  BranchPayload,
  ChatExport,
  ChatExportFormat,
  ExportChatQuery,
  RoomBranches,
} from './types/branch';
export type {
  DeleteMemoryPayload,
  Memory,
  MemoryKind,
  MemorySubject,
  MemoryWriter,
  PromptPart,
  PromptPartKind,
  PromptView,
  PromptViewQuery,
  RoomMemories,
  RoomMemoriesQuery,
  SaveMemoryPayload,
  SetMemoryAcrossChatsPayload,
  WriteMemoriesPayload,
} from './types/memory';
export type {
  ChatSendPayload,
  ChatStreamEvent,
  ChatUsage,
  Inspiration,
  InspirationKind,
  InspirationPayload,
  MessageSavedEvent,
  ReplyDeltaEvent,
  ReplyEndEvent,
  ReplyErrorEvent,
  ReplyStartEvent,
} from './types/chat';
export type {
  AigcModel,
  AigcModelKind,
  AudioClip,
  CreateImagePayload,
  ImageJobRef,
  ImageSize,
  CancelImagePayload,
  JobState,
  JobStatus,
  MessageImage,
  JobStatusQuery,
  RoomPicture,
  RoomPicturesQuery,
  SharePicturePayload,
  SpeechLink,
  SpeechLinkPayload,
  TextToAudioPayload,
  TranscribePayload,
  Transcription,
  Voice,
  VoiceCatalog,
  VoiceGender,
} from './types/media';
export type {
  LedgerEntry,
  LedgerKind,
  LedgerQuery,
  LedgerReference,
  SetSpendingCapPayload,
  SpendingCap,
} from './types/ledger';
export type {
  BillingPeriod,
  Checkout,
  CheckoutPayload,
  CheckoutState,
  CheckoutStatus,
  CheckoutStatusQuery,
  FeatureCosts,
  Package,
  Price,
  Subscription,
  SubscriptionInfo,
  SubscriptionStatus,
} from './types/subscription';
export type {
  CardFile,
  CardFormat,
  CardPreview,
  CardSourceSpec,
  CardSpec,
  ExportCardQuery,
  ImportCardPayload,
} from './types/card';
export type {
  HideMatePayload,
  HideMateResult,
  MateReport,
  ModerateMateQuery,
  ReportQueueQuery,
  ReportQueueState,
  ReportedMate,
} from './types/moderation';
