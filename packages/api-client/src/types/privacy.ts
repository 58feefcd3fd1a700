import type { IsoDateTime } from './common';

/** Every state of a "Download my data" zip, in the order it goes through them. */
export const DATA_EXPORT_STATES = ['queued', 'running', 'ready', 'failed', 'expired'] as const;

/**
 * Where a "Download my data" zip stands: `queued` and `running` while it is built (with
 * `progress`), `ready` to download, `failed` (with `error`), or `expired` once its file is gone.
 */
export type DataExportState = (typeof DATA_EXPORT_STATES)[number];

/** One "Download my data" zip of the caller's (answer of `/user/exportData`). */
export interface DataExport {
  /** The export's id (its job's). */
  exportId: string;
  /** Where it stands (see {@link DataExportState}). */
  state: DataExportState;
  /** 0..1 while it is built; 1 once ready. */
  progress: number;
  /** When it was asked for. */
  createdAt: IsoDateTime;
  /** When its zip was ready, or `null`. */
  readyAt: IsoDateTime | null;
  /** When its zip is removed and can no longer be downloaded, or `null` before it is ready. */
  expiresAt: IsoDateTime | null;
  /** The zip's size in bytes once ready, else `null`. */
  size: number | null;
  /**
   * While `ready`: a signed link (a path on the API's site) that downloads the zip, made for the
   * caller only and working for one hour; ask `/user/exportStatus` again for a fresh one.
   */
  downloadUrl: string | null;
  /** Why it failed (`failed`), in the caller's language; else `null`. */
  error: string | null;
}

/** Answer of `GET /user/exportStatus`: the caller's newest export, or `null` when none. */
export interface DataExportStatus {
  /** The newest export asked for, whatever its state; `null` before the first. */
  latest: DataExport | null;
}

/** Asks for a link the browser downloads a ready zip from by itself (`/user/exportTicket`). */
export interface ExportTicketPayload {
  /** The ready export's `downloadUrl`, as the status gave it. */
  downloadUrl: string;
}

/**
 * A link to the zip that needs no session: the browser downloads it by itself, to disk, however
 * large. Made only for the zip's owner, signed, working for {@link EXPORT_TICKET_SECONDS}.
 */
export interface ExportTicket {
  /** `/api/user/exportDownload?…&ticket=…`, to open as a download. */
  url: string;
}

/** How long an {@link ExportTicket}'s link works, in seconds. */
export const EXPORT_TICKET_SECONDS = 60;

/** How the owner of an account proves it is them before it is deleted. */
export const ACCOUNT_PROOFS = ['password', 'google', 'discord'] as const;

/** One of {@link ACCOUNT_PROOFS}. */
export type AccountProof = (typeof ACCOUNT_PROOFS)[number];

/** What becomes of the caller's public mates when their account is deleted. */
export const PUBLIC_MATES_CHOICES = ['delete', 'keep'] as const;

/** One of {@link PUBLIC_MATES_CHOICES}: deleted, or kept under "a former member". */
export type PublicMatesChoice = (typeof PUBLIC_MATES_CHOICES)[number];

/** Answer of `GET /user/deletionPreview`: what deleting the caller's account would do. */
export interface DeletionPreview {
  /** The ways the caller can prove it is them: a password, or a fresh provider sign-in. */
  proofs: AccountProof[];
  /** Their chats (every path of every chat). */
  chats: number;
  /** Their personas. */
  personas: number;
  /** Their pictures drawn in chats. */
  pictures: number;
  /** Their voice clips. */
  voiceClips: number;
  /** Their public mates: deleted or kept, as they choose. */
  publicMates: number;
  /** Their private mates and drafts: always deleted. */
  privateMates: number;
  /** Whether they have a paid plan, which is cancelled at once. */
  paidPlan: boolean;
}

/**
 * Payload of `POST /user/deleteAccount`: the proof (the password, or a fresh Google ID token or
 * Discord authorization code of the same account) and what becomes of the public mates.
 */
export interface DeleteAccountPayload {
  /** The account's password, for an account that has one. */
  password?: string;
  /** A Google ID token from a sign-in just made, for an account linked to Google. */
  googleCredential?: string;
  /** A Discord authorization code from a sign-in just made, for an account linked to Discord. */
  discordCode?: string;
  /** What becomes of the public mates: deleted, or kept under "a former member". */
  publicMates: PublicMatesChoice;
}
