export { authPopupMachine, discordAuthorizeUrl } from './auth-popup-machine';
export { verificationMachine } from './verification-machine';
export { chatStreamMachine } from './chat-stream-machine';
export { groupChatMachine } from './group-chat-machine';
export { studioMachine } from './studio-machine';
export { jobPollingMachine } from './job-polling-machine';
export { audioPlaybackMachine } from './audio-playback-machine';
export { checkoutMachine } from './checkout-machine';
export { callMachine } from './call-machine';
export {
  ALTERNATE_GREETINGS_LIMIT,
  checkMateDraft,
  emptyMateDraft,
  IDEA_MAX_LENGTH,
  isIdeaValid,
  MATE_TAGS_LIMIT,
  MATE_TEXT_LIMITS,
} from './mate-draft-rules';
export { createUserStore, initialUserState, isLoggedIn, USER_STORE_KEY } from './user-store';
export {
  AUTH_MODE,
  CHECKOUT_DEADLINE_MS,
  CHECKOUT_POLL_INTERVAL_MS,
  DEFAULT_BENEFITS,
  DEFAULT_LANGUAGE,
  DIALOG_TRANSITION_MS,
  DIALOG_WIDTH_PX,
  DISCORD_REDIRECT_PATH,
  DISCORD_SCOPE,
  IMAGE_POLL_INTERVAL_MS,
  IMAGE_POLL_MAX_BACKOFF_MS,
  IMAGE_POLL_MAX_RETRIES,
  ESCAPE_SHAKE_MS,
  MASKED_PLACEHOLDER,
  NOTIFICATION_MS,
  POLL_INTERVAL_MS,
  RESET_PASSWORD_PATH,
  SPEECH_LINK_MARGIN_MS,
  VERIFY_EMAIL_PATH,
} from './constants';

export type {
  AuthPopupEvent,
  AuthPopupInput,
  DiscordAuthorizeConfig,
  SignUpSuccessEmitted,
} from './auth-popup-machine';
export type { VerificationEvent, VerificationInput } from './verification-machine';
export type {
  ChatStreamContext,
  ChatStreamInput,
  ChatStreamInternalEvent,
  ChatStreamUserEvent,
} from './chat-stream-machine';
export type {
  GroupChatContext,
  GroupChatInput,
  GroupChatUserEvent,
  GroupReply,
} from './group-chat-machine';
export type {
  JobPollingContext,
  JobPollingEvent,
  JobPollingInput,
  JobProgressEmitted,
} from './job-polling-machine';
export type {
  AudioChargedEmitted,
  AudioPlaybackContext,
  AudioPlaybackEvent,
  AudioPlaybackInput,
  AudioPlaybackInternalEvent,
  AudioPlayer,
  QueuedVoice,
} from './audio-playback-machine';
export type {
  StudioContext,
  StudioEvent,
  StudioFailure,
  StudioIdea,
  StudioInput,
  StudioPortrait,
} from './studio-machine';
export type {
  CheckoutContext,
  CheckoutEvent,
  CheckoutInput,
  CheckoutPaidEmitted,
} from './checkout-machine';
export type { MateDraftProblem, MateDraftProblems, MateTextField } from './mate-draft-rules';
export type {
  KeyValueStorage,
  StoredUserInfo,
  ThemeChoice,
  UserState,
  UserStore,
  UserStoreOptions,
} from './user-store';
export type {
  CallCaption,
  CallClip,
  CallConnection,
  CallConnectionHandlers,
  CallConnector,
  CallEvent,
  CallFailure,
  CallInternalEvent,
  CallMachineContext,
  CallMachineEvent,
  CallMachineInput,
  CallMicrophone,
  CallMicrophoneHandlers,
  CallPlayer,
  CallSocketCommand,
} from './call-machine';
export type { AuthMode } from './constants';
export type { Notice, Platform } from './platform';
