import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  AccountProof,
  DeleteAccountPayload,
  DeletionPreview,
  PublicMatesChoice,
} from '@mates/api-client';
import type { Config } from '../config';
import type { Database, UserTable } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { now, toBool } from '../db/dialect';
import { refused } from '../domain/errors';
import type { JobQueue } from '../jobs/job-queue';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../mail/mailer';
import type { ChatService } from '../chat/chat-service';
import type { MediaStore } from '../media/media-store';
import { forgetUserSessions } from '../accounts/session-cache';
import { verifyPassword } from '../accounts/secrets';
import { googleIdentity, type GoogleVerifier } from '../accounts/google';
import { discordIdentity } from '../accounts/discord';
import { portraitKey } from '../catalog/portrait-files';
import { stripeTrouble, type PaymentDeps } from '../payments/payment-deps';
import { accountDeletedMail } from './privacy-mails';
import {
  accountCounts,
  closingAccounts,
  deleteAccountRows,
  filesAndJobsOf,
  markClosing,
  markPlanCancelled,
  matesToSettle,
  portraitStays,
  roomIdsOf,
  subscriptionRow,
  type MateFates,
} from './account-deletion-repository';

/** What closing an account needs. */
export interface AccountDeletionDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  config: Pick<Config, 'google' | 'discord' | 'publicUrl'>;
  jobs: JobQueue;
  mailer: Mailer;
  media: MediaStore;
  log: Logger;
  /** Stripe, to cancel a paid plan. */
  payments: PaymentDeps;
  fetch: typeof globalThis.fetch;
  verifyGoogle: GoogleVerifier;
  /** Stops the replies still being written in the person's chats (none from a command line). */
  chat?: Pick<ChatService, 'stop'>;
}

/** How the owner of `user` can prove it is them. */
export function proofsOf(user: UserTable): AccountProof[] {
  return [
    ...(user.password_hash ? (['password'] as const) : []),
    ...(user.google_sub ? (['google'] as const) : []),
    ...(user.discord_id ? (['discord'] as const) : []),
  ];
}

/** What deleting the caller's account would delete ("Delete my account" says it first). */
export async function deletionPreview(
  deps: Pick<AccountDeletionDeps, 'db'>,
  user: UserTable,
): Promise<DeletionPreview> {
  const counts = await accountCounts(deps.db, user.id);
  return {
    proofs: proofsOf(user),
    chats: counts.chats,
    personas: counts.personas,
    pictures: counts.pictures,
    voiceClips: counts.voiceClips,
    publicMates: counts.publicMates,
    privateMates: counts.privateMates,
    paidPlan: isPaidPlan(counts.plan),
  };
}

const isPaidPlan = (plan: { status: string; stripe_subscription_id: string | null } | undefined) =>
  Boolean(plan?.stripe_subscription_id && plan.status !== 'canceled');

/**
 * "Delete my account": once the caller proved it is them (their password, or a fresh sign-in
 * with the Google or Discord account linked to it), cancels their paid plan at Stripe, marks
 * the account as closing (every session ends at once, on every server; nobody can sign in to
 * it, and its address can sign up again), then deletes it ({@link completeAccountDeletion}).
 * A deletion a kill interrupts is completed at the next start ({@link resumeAccountDeletions}).
 */
export async function deleteAccount(
  deps: AccountDeletionDeps,
  user: UserTable,
  input: DeleteAccountPayload,
): Promise<void> {
  await checkProof(deps, user, input);
  await closeAccount(deps, user, input.publicMates);
}

/** What closing an account needs, once its owner proved it is them. */
export type ClosingDeps = Pick<
  AccountDeletionDeps,
  'db' | 'dialect' | 'jobs' | 'mailer' | 'media' | 'log' | 'payments' | 'chat'
>;

/**
 * Closes `user`'s account (asked by its owner, or by an operator on their request): cancels
 * a paid plan at Stripe (refused, changing nothing, when Stripe cannot be reached), marks the
 * account as closing and ends every session on every server, deletes it, and mails the
 * address that it is done.
 */
export async function closeAccount(
  deps: ClosingDeps,
  user: Pick<UserTable, 'id' | 'email' | 'language'>,
  publicMates: PublicMatesChoice,
): Promise<void> {
  await cancelPlan(deps, user.id);
  await markClosing(deps.db, deps.dialect, user.id, publicMates === 'keep', now());
  await forgetUserSessions(deps.db, user.id);
  // A reply still being written for them stops, on whichever server writes it: the provider is
  // asked nothing more for an account that is going.
  if (deps.chat) {
    const { chat } = deps;
    await Promise.all((await roomIdsOf(deps.db, user.id)).map((roomId) => chat.stop(roomId)));
  }
  await completeAccountDeletion(deps, user.id, publicMates);
  await deps.mailer
    .send(accountDeletedMail(user.email, user.language))
    .catch((error: unknown) =>
      deps.log.error(`the account deleted mail was not sent: ${(error as Error).message}`),
    );
}

async function checkProof(
  deps: AccountDeletionDeps,
  user: UserTable,
  input: DeleteAccountPayload,
): Promise<void> {
  if (input.password !== undefined && user.password_hash) {
    if (!(await verifyPassword(user.password_hash, input.password)))
      throw refused('notices.privacy.wrongPassword');
    return;
  }
  if (input.googleCredential !== undefined && user.google_sub) {
    const identity = await googleIdentity(deps, input.googleCredential);
    if (identity.subject !== user.google_sub) throw refused('notices.privacy.otherAccount');
    return;
  }
  if (input.discordCode !== undefined && user.discord_id) {
    const identity = await discordIdentity(deps, input.discordCode);
    if (identity.subject !== user.discord_id) throw refused('notices.privacy.otherAccount');
    return;
  }
  throw refused('notices.privacy.proofNeeded');
}

/** Ends a paid plan at Stripe now (not at its period's end); one already gone there is fine. */
async function cancelPlan(deps: ClosingDeps, userId: string): Promise<void> {
  const plan = await subscriptionRow(deps.db, userId);
  if (!plan || !isPaidPlan(plan)) return;
  const stripe = deps.payments.stripe;
  if (!stripe) {
    deps.log.warn(
      `the plan ${plan.stripe_subscription_id} of a deleted account could not be cancelled: payments are not set up`,
    );
    return;
  }
  try {
    await stripe.subscriptions.cancel(plan.stripe_subscription_id!);
  } catch (error) {
    const gone =
      error instanceof stripe.errors.StripeInvalidRequestError &&
      (error as { code?: string }).code === 'resource_missing';
    if (!gone) stripeTrouble(deps.payments, error);
  }
  await markPlanCancelled(deps.db, userId);
}

/**
 * Deletes a closing account: its files first (pictures, voice clips, exports, avatars and
 * the portraits of mates that go), then, in one transaction, every row of it (see
 * `deleteAccountRows`); public mates are kept under "a former member" when `publicMates` is
 * `keep`. Each step can be run again: a deletion interrupted anywhere completes when run again.
 */
export async function completeAccountDeletion(
  deps: Pick<AccountDeletionDeps, 'db' | 'dialect' | 'jobs' | 'media' | 'log'>,
  userId: string,
  publicMates: PublicMatesChoice,
): Promise<void> {
  const { db, media } = deps;
  const owned = await filesAndJobsOf(db, userId);
  for (const jobId of owned.jobIds) await deps.jobs.cancel(jobId);
  const mates = await matesToSettle(db, userId);
  const fates: MateFates = { keep: [], retire: [], remove: [] };
  for (const mate of mates) {
    const live = mate.deleted_at === null && mate.hidden_at === null;
    if (publicMates === 'keep' && live && mate.visibility === 'public') fates.keep.push(mate.id);
    else if (toBool(mate.others_chat)) fates.retire.push(mate.id);
    else fates.remove.push(mate.id);
  }
  for (const key of owned.keys) await media.remove(key);
  // Portraits shown by nothing that stays (a mate kept, a copy in someone else's persona).
  const portraits = new Set([
    ...owned.avatars,
    ...mates.filter((mate) => fates.remove.includes(mate.id)).map((mate) => mate.avatar),
  ]);
  for (const avatar of portraits) {
    const key = portraitKey(avatar);
    if (key && !(await portraitStays(db, avatar, userId, fates.remove))) await media.remove(key);
  }
  await deleteAccountRows(
    db,
    deps.dialect,
    { userId, formerId: randomUUID(), fates, jobIds: owned.jobIds, roomIds: owned.roomIds },
    now(),
  );
  deps.log.info(`account ${userId} deleted`);
}

/** Completes the deletions a kill interrupted (accounts still marked as closing). */
export async function resumeAccountDeletions(
  deps: Pick<AccountDeletionDeps, 'db' | 'dialect' | 'jobs' | 'media' | 'log'>,
): Promise<number> {
  const closing = await closingAccounts(deps.db);
  for (const account of closing) {
    await completeAccountDeletion(
      deps,
      account.id,
      toBool(account.closing_keeps_mates) ? 'keep' : 'delete',
    );
  }
  return closing.length;
}
