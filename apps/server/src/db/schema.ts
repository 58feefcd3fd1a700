import type { Generated } from 'kysely';

// Timestamps are ISO 8601 strings in UTC on both dialects (text on SQLite, timestamptz on
// PostgreSQL, read back as ISO strings); booleans are 0/1 on SQLite; JSON is text on
// SQLite and jsonb on PostgreSQL. Readers go through the helpers in dialect.ts.
type Timestamp = string;
type Bool = boolean | number;
type Json = string | unknown;

export interface UserTable {
  id: string;
  email: string;
  password_hash: string | null;
  nickname: string;
  avatar: string | null;
  bio: string;
  language: string;
  nfsw: Bool;
  tags: Json;
  gender: string | null;
  email_verified_at: Timestamp | null;
  google_sub: string | null;
  discord_id: string | null;
  /** Most chats spent in one UTC day, or `null` (no cap). */
  daily_chats_cap?: number | null;
  /** Most gold coins spent in one UTC day, or `null` (no cap). */
  daily_gold_coins_cap?: number | null;
  /** When its owner asked for it to be deleted (the deletion completes at the next start). */
  closing_at?: Timestamp | null;
  /** Whether its owner chose to keep their public mates under "a former member". */
  closing_keeps_mates?: Bool;
  /** An anonymous row keeping a deleted person's public mates and ledger, no one's account. */
  former_member?: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export interface EmailVerificationTable {
  id: string;
  user_id: string;
  email: string;
  link_token_hash: string;
  ticket_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  verified_at: Timestamp | null;
}

export interface BenefitsTable {
  user_id: string;
  chats: number;
  gold_coins: number;
  updated_at: Timestamp;
}

export interface BenefitLedgerTable {
  id: Generated<number>;
  user_id: string;
  chats_delta: number;
  gold_coins_delta: number;
  /** Why, in English words (what exports, the operators' commands and logs read). */
  reason: string;
  /**
   * The sentence `reason` says (`ledger.reasons.chat`, a key of the server's texts), which the
   * ledger says in the reader's language, with its values as JSON (`reason_args`); `null` for
   * an operator's own words and for rows older than the keys whose sentence had values.
   */
  reason_key: string | null;
  reason_args: string | null;
  /** A `LedgerKind`: grant, purchase, renewal, spend, refund, adjustment. */
  kind: string;
  /** What it paid for or came from (`message`, `room`, `mate`, `package`), or `null`. */
  reference_type: string | null;
  reference_id: string | null;
  /** The balances right after this row. */
  chats_after: number;
  gold_coins_after: number;
  created_at: Timestamp;
}

export interface TagGroupTable {
  key: string;
  label: string;
  sort: number;
}

export interface TagTable {
  key: string;
  group_key: string;
  label: string;
  sort: number;
}

export interface MateTable {
  id: string;
  creator_id: string;
  name: string;
  tagline: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  system_prompt: string;
  alternate_greetings: Json;
  tags: Json;
  extensions: Json;
  card_extra: Json;
  /** The Character Card spec the mate was imported as (`v2`, `v3`); its JSON export's default. */
  card_spec: string;
  avatar: string;
  gender: string;
  nsfw: Bool;
  visibility: string;
  /** The voice it speaks in (an id of `GET /voice/voices`), or `null` for the default. */
  voice: string | null;
  /** Set when the creator deleted it (the row stays for other people's rooms). */
  deleted_at: Timestamp | null;
  /** Set when moderators hid it. */
  hidden_at: Timestamp | null;
  hidden_reason: string | null;
  hidden_note: string;
  hidden_by: string | null;
  chats_count: number;
  messages_count: number;
  favorites_count: number;
  reviews_count: number;
  rating_sum: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MateTagTable {
  mate_id: string;
  tag_key: string;
}

export interface FavoriteTable {
  user_id: string;
  mate_id: string;
  created_at: Timestamp;
}

export interface FollowTable {
  user_id: string;
  creator_id: string;
  created_at: Timestamp;
}

export interface PersonaTable {
  id: string;
  user_id: string;
  name: string;
  description: string;
  avatar: string | null;
  is_default: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReviewTable {
  id: string;
  user_id: string;
  mate_id: string;
  rating: number;
  content: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MateFeedbackTable {
  id: Generated<number>;
  user_id: string | null;
  mate_id: string;
  reason: string;
  content: string;
  created_at: Timestamp;
  /** Set when a moderator acted on the report. */
  closed_at: Timestamp | null;
  closed_by: string | null;
  /** `hidden` or `dismissed`. */
  outcome: string | null;
}

export interface UserFeedbackTable {
  id: Generated<number>;
  user_id: string | null;
  category: string;
  content: string;
  contact: string;
  created_at: Timestamp;
}

export interface SearchLogTable {
  id: Generated<number>;
  word: string;
  created_at: Timestamp;
}

/** A counter raised by triggers whenever answers of its kind change (catalog cache keys). */
export interface CatalogVersionTable {
  name: string;
  version: number;
}

/** Searches per word per UTC day (`YYYY-MM-DD`): what hot words read. */
export interface SearchWordDayTable {
  word: string;
  day: string;
  searches: number;
}

/** Who searched a word on a UTC day: each person counts once a day in the hot words. */
export interface SearchWordPersonTable {
  word: string;
  day: string;
  user_id: string;
}

/** How people typed a hot word on a UTC day (lowercase, accents kept), once per person a day. */
export interface SearchWordSpellingTable {
  word: string;
  day: string;
  spelling: string;
  searches: number;
}

/** The last UTC day a user chatted with a mate. */
export interface MateChatterTable {
  mate_id: string;
  user_id: string;
  last_day: string;
}

/** Per mate per UTC day, the users whose last chat with it was that day: what trending reads. */
export interface MateTrendDayTable {
  mate_id: string;
  day: string;
  users: number;
}

export interface PackageTable {
  id: string;
  name: string;
  description: string;
  price_amount: number;
  price_currency: string;
  period: string;
  chats: number;
  gold_coins: number;
  features: Json;
  sort: number;
  /** Whether it is offered (a package left out of `PACKAGES_FILE` stays for its history). */
  on_sale: Generated<Bool>;
}

export interface SubscriptionTable {
  user_id: string;
  package_id: string;
  status: string;
  started_at: Timestamp;
  current_period_end: Timestamp;
  stripe_subscription_id: string | null;
  stripe_customer_id: string | null;
  /** When the newest Stripe event applied to it was created (Unix seconds). */
  stripe_event_at: Generated<number>;
  cancel_at_period_end: Generated<Bool>;
}

/** One purchase started through Stripe Checkout, and where it stands. */
export interface CheckoutTable {
  id: string;
  user_id: string;
  package_id: string;
  stripe_session_id: string | null;
  stripe_payment_intent: string | null;
  /** One of `CHECKOUT_STATES`. */
  state: string;
  chats_granted: Generated<number>;
  gold_coins_granted: Generated<number>;
  /** What refunds of its payment have taken back so far, in minor units. */
  amount_refunded: Generated<number>;
  /** What chargebacks lost on its payment have taken back so far, in minor units. */
  amount_disputed: Generated<number>;
  /** Whether it buys a plan: one person has at most one plan checkout `open`. */
  plan: Generated<Bool>;
  /** What it sold, in minor units: its package's price when it began (null before 2026-11-28). */
  price_amount: number | null;
  /** The currency of `price_amount`, upper case as packages store it. */
  price_currency: string | null;
  /** Why its paid session was not granted (another session, amount or currency), if it was not. */
  problem: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * One payment of a plan, by its Stripe invoice: the first month's (through its checkout) or a
 * renewal's, with what it granted and what refunds and lost chargebacks took back.
 */
export interface PlanPaymentTable {
  invoice_id: string;
  user_id: string;
  package_id: string;
  chats_granted: number;
  gold_coins_granted: number;
  amount_refunded: Generated<number>;
  amount_disputed: Generated<number>;
  created_at: Timestamp;
}

/** A mailed password-reset link, by the hash of its token. */
export interface PasswordResetTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A Stripe event already fulfilled (by its id). */
export interface PaymentEventTable {
  id: string;
  type: string;
  processed_at: Timestamp;
}

export interface RoomTable {
  id: string;
  user_id: string;
  mate_id: string;
  persona_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The position through which its messages are remembered (0: none yet). */
  memory_through: number;
  /** Why the last try to write its memories failed (a sentence key), else `null`. */
  memory_error: string | null;
  /** Moves on with every change to what its prompt may remember (0: nothing to remember). */
  memory_version: number;
  /** The chat's first path, for a branch; `null` on a first path (its own id is the family's). */
  family_id: string | null;
  /** The path it was branched from (`null` on a first path; kept when that path is deleted). */
  parent_room_id: string | null;
  /** The message of that path it was branched at. */
  fork_parent_message_id: string | null;
  /** That message's copy here. */
  fork_message_id: string | null;
  /** A group chat's name; `null` on a one-to-one room (a room with one is a group). */
  group_name: string | null;
  /** A group chat's scenario. */
  group_scenario: string | null;
  /** Who speaks after the person's message in a group (`GroupTurnOrder`). */
  turn_order: string | null;
  /** In a group, the "Continue"s and "Let X speak"s since the person last wrote. */
  nexts_in_row: number;
}

/** A mate that is or was in a group chat. */
export interface RoomMemberTable {
  room_id: string;
  mate_id: string;
  /** Its name when it joined (a deleted mate is still named by its past replies). */
  name: string;
  /** Its place in the list. */
  position: number;
  muted: Bool;
  /** 0 to 1: how readily it speaks in the natural order. */
  talkativeness: number;
  joined_at: Timestamp;
  /** When it left (removed, or no longer visible to the room's owner), else `null`. */
  left_at: Timestamp | null;
  /** Its stays before it was invited back, `{ joinedAt, leftAt }` each, oldest first. */
  earlier_stays: Json;
}

/** One thing a mate remembers of a room: a fact, or the room's running summary. */
export interface MemoryTable {
  id: string;
  room_id: string;
  /** `fact` or `summary`. */
  kind: string;
  /** `story` or `person`. */
  about: string;
  content: string;
  pinned: Generated<Bool>;
  /** `mate` (written from messages) or `person`. */
  author: string;
  /**
   * In a group, the member whose own memory it is (only its prompts read it); `null` for what
   * the room shares (every memory of a one-to-one chat, a group's summary).
   */
  mate_id: Generated<string | null>;
  /** A message it came from was edited or deleted since. */
  needs_review: Generated<Bool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A message a memory was made from. */
export interface MemorySourceTable {
  memory_id: string;
  message_id: string;
  /** The message's position in its room. */
  position: number;
}

/** Whether facts about a person go with them into their other chats with a mate. */
export interface MemorySettingTable {
  user_id: string;
  mate_id: string;
  across_chats: Bool;
}

export interface MessageTable {
  id: string;
  room_id: string;
  position: number;
  role: string;
  content: string;
  status: string;
  created_at: Timestamp;
  edited_at: Timestamp | null;
  /** The message's other versions, in order (JSON list), or `null` when it has one. */
  swipes: Json | null;
  /** Where `content` sits among its versions (0 when it has one). */
  swipe_index: number;
  /**
   * The states of the other versions, in the order of `swipes` (JSON list); `null` when each is
   * whole (`complete`).
   */
  swipe_statuses: Json | null;
  /** What a picture message asked for; `null` for text messages. */
  image_prompt: string | null;
  /** A picture message's size (`768x1024`). */
  image_size: string | null;
  /** The job drawing it, once queued. */
  image_job_id: string | null;
  /** In a group chat, the mate that wrote a `mate` message; `null` elsewhere. */
  speaker_id: string | null;
  /** Its stored file (see `images/picture-store.ts`), once drawn. */
  image_file: string | null;
  /** Why it could not be queued. */
  image_error: string | null;
  /** The image model it was asked of; `null` for the default. */
  image_model: string | null;
  /** The random id of its public link while its owner shares it (unique), else `null`. */
  image_share_id: string | null;
  /** The voice call it was said in (issue 42), else `null`. */
  call_id?: string | null;
  /** A call's reply the person interrupted: its text is what was said before. */
  call_cut?: Bool;
}

/** A one-time ticket that opens a voice call's socket (a minute's life). */
export interface CallTicketTable {
  /** SHA-256 of the ticket (the ticket itself is only the caller's). */
  ticket_hash: string;
  call_id: string;
  user_id: string;
  room_id: string;
  /** The session that asked for it: the call ends with it. */
  session_hash: string;
  /** `server` or `browser`. */
  transcriber: string;
  expires_at: Timestamp;
}

/** The audio of one message in one voice (see `voice/speech-clips.ts`). */
export interface SpeechClipTable {
  id: string;
  message_id: string;
  voice: string;
  /** SHA-256 of the text spoken, in hex. */
  text_hash: string;
  /** Its stored file once made (see `voice/speech-store.ts`). */
  file: string | null;
  mime_type: string | null;
  duration_ms: number | null;
  /** Gold coins it took. */
  cost: number;
  /** Who paid for it. */
  user_id: string;
  /** `pending` (paid, not made yet), `ready` or `failed` (coins given back). */
  state: string;
  /** Until when a server claims the making of this pending clip (`null`: nobody). */
  making_until: Timestamp | null;
  created_at: Timestamp;
}

/** A background job as the API reads it; the queue library dispatches it (see `src/jobs`). */
export interface JobTable {
  id: string;
  kind: string;
  /** `queued`, `running`, `succeeded`, `failed` or `cancelled`. */
  state: string;
  payload: Json;
  /** 0..1, as the handler last reported it. */
  progress: number;
  result: Json | null;
  error: string | null;
  singleton_key: string | null;
  /** How many times a handler started on it (more than one after an interrupted run). */
  attempts: number;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

/** One "Download my data" zip: its job (the same id), its stored file once made. */
export interface DataExportTable {
  id: string;
  user_id: string;
  /** Its key in the media store (`exports/<name>.zip`), once made. */
  file: string | null;
  size: number | null;
  created_at: Timestamp;
  ready_at: Timestamp | null;
  /** When its file is removed and its link stops working. */
  expires_at: Timestamp | null;
}

/** Every table of the Mates database. */
export interface Database {
  users: UserTable;
  sessions: SessionTable;
  email_verifications: EmailVerificationTable;
  benefits: BenefitsTable;
  benefit_ledger: BenefitLedgerTable;
  tag_groups: TagGroupTable;
  tags: TagTable;
  mates: MateTable;
  mate_tags: MateTagTable;
  favorites: FavoriteTable;
  follows: FollowTable;
  personas: PersonaTable;
  reviews: ReviewTable;
  mate_feedback: MateFeedbackTable;
  user_feedback: UserFeedbackTable;
  search_log: SearchLogTable;
  catalog_versions: CatalogVersionTable;
  search_word_days: SearchWordDayTable;
  search_word_people: SearchWordPersonTable;
  search_word_spellings: SearchWordSpellingTable;
  mate_chatters: MateChatterTable;
  mate_trend_days: MateTrendDayTable;
  packages: PackageTable;
  subscriptions: SubscriptionTable;
  checkouts: CheckoutTable;
  plan_payments: PlanPaymentTable;
  payment_events: PaymentEventTable;
  password_resets: PasswordResetTable;
  rooms: RoomTable;
  room_members: RoomMemberTable;
  messages: MessageTable;
  memories: MemoryTable;
  memory_sources: MemorySourceTable;
  memory_settings: MemorySettingTable;
  jobs: JobTable;
  speech_clips: SpeechClipTable;
  data_exports: DataExportTable;
  call_tickets: CallTicketTable;
}
