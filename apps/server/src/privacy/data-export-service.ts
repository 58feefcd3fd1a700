import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { EXPORT_TICKET_SECONDS } from '@mates/api-client';
import type { DataExport, DataExportStatus, ExportTicket } from '@mates/api-client';
import type { Config } from '../config';
import type { Database, DataExportTable, UserTable } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { fromJson, now, toBool } from '../db/dialect';
import type { JobContext, JobQueue, JobStatus } from '../jobs/job-queue';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../mail/mailer';
import type { MediaStore } from '../media/media-store';
import { textsFor } from '../i18n/texts';
import { missing } from '../domain/errors';
import { refuseWhenSpent, type RateLimits } from '../accounts/rate-limits';
import { exportChat } from '../chat/branch-service';
import { membersOfRooms } from '../chat/group-repository';
import { exportCard } from '../cards/card-service';
import { linkSecretOf } from '../images/picture-links';
import { SPEECH_FILE_ENDINGS } from '../voice/speech-store';
import { writeZip, type ZipEntry } from './export-zip';
import { dataReadyMail } from './privacy-mails';
import {
  accountOf,
  clearDataExportFile,
  dataExportById,
  deleteDataExport,
  expiredDataExports,
  fileCounts,
  insertDataExport,
  ledgerPage,
  markDataExportReady,
  newestDataExport,
  olderDataExports,
  ownMatesOf,
  openAccountOf,
  paymentsOf,
  picturesPage,
  roomsOf,
  searchesOf,
  sessionsOf,
  socialOf,
  voiceClipsPage,
  writtenToTeamOf,
} from './data-export-repository';

/** The job that builds a "Download my data" zip. */
export const DATA_EXPORT_JOB = 'data-export';

/** How long a ready zip can be downloaded before it is removed. */
export const EXPORT_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** How long a download link works from when it was handed out. */
export const EXPORT_LINK_SECONDS = 60 * 60;

/** Where zips are downloaded: `?exportId&expires&signature`. */
export const EXPORT_DOWNLOAD_PATH = '/api/user/exportDownload';

/** What the export needs. */
export interface DataExportDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  config: Pick<Config, 'dataDir' | 'linkSecret' | 'publicUrl' | 'exportTimeoutMs'>;
  jobs: JobQueue;
  mailer: Mailer;
  media: MediaStore;
  log: Logger;
  limits: Pick<RateLimits, 'dataExport'>;
}

interface ExportPayload {
  userId: string;
}

/** Registers the export job: one at a time per server, for up to `EXPORT_TIMEOUT`. */
export function defineDataExportJob(deps: DataExportDeps): void {
  deps.jobs.define<ExportPayload, { file: string }>(
    DATA_EXPORT_JOB,
    (job) => runDataExport(deps, job),
    { concurrency: 1, timeoutMs: deps.config.exportTimeoutMs },
  );
}

/**
 * "Download my data": starts building the caller's zip, or answers the one being built (one at
 * a time per person). A zip built spends one of the day's (`DATA_EXPORTS_PER_DAY`); an
 * ask answered with the zip being built spends nothing, nor does one refused. The day's count
 * is checked before and spent once the zip is queued, by the one ask that queued it: asks sent
 * at once all queue the same job (its key is the person's), and a refused ask's point, which
 * rate-limiter-flexible keeps even past the limit, once locked someone out for a day.
 */
export async function requestDataExport(
  deps: DataExportDeps,
  user: UserTable,
  language: string,
): Promise<DataExport> {
  const building = await exportBeingBuilt(deps, user.id, language);
  if (building) return building;
  try {
    await refuseWhenSpent(deps.limits.dataExport, user.id);
  } catch (error) {
    // Spent meanwhile by an ask sent at once, which queued the day's last zip after this one
    // looked: that zip is the answer here too.
    const queued = await exportBeingBuilt(deps, user.id, language);
    if (queued) return queued;
    throw error;
  }
  // Its record first, so that the job (which may start at once) finds it.
  const id = randomUUID();
  await insertDataExport(deps.db, { id, user_id: user.id, created_at: now() });
  let jobId: string;
  try {
    jobId = await deps.jobs.enqueue<ExportPayload>(
      DATA_EXPORT_JOB,
      { userId: user.id },
      { id, singletonKey: `export:${user.id}` },
    );
  } catch (error) {
    await deleteDataExport(deps.db, id);
    throw error;
  }
  if (jobId === id) {
    // Queued: counted. Past the limit only where another ask's zip ended in between, by one.
    await deps.limits.dataExport.penalty(user.id);
  } else {
    // One was being built already: that one is the answer.
    await deleteDataExport(deps.db, id);
  }
  const row = await dataExportById(deps.db, jobId);
  if (!row) throw new Error(`data export ${jobId} has no record`);
  return toDataExport(deps, row, await deps.jobs.status(jobId), language);
}

/** The caller's export still being built, if any: the answer to an ask meanwhile. */
async function exportBeingBuilt(
  deps: DataExportDeps,
  userId: string,
  language: string,
): Promise<DataExport | null> {
  const row = await newestDataExport(deps.db, userId);
  if (!row) return null;
  const latest = toDataExport(deps, row, await deps.jobs.status(row.id), language);
  return latest.state === 'queued' || latest.state === 'running' ? latest : null;
}

/** The caller's newest export, with a fresh download link while it is ready. */
export async function dataExportStatus(
  deps: DataExportDeps,
  user: UserTable,
  language: string,
): Promise<DataExportStatus> {
  await removeExpiredExports(deps, user.id);
  const row = await newestDataExport(deps.db, user.id);
  if (!row) return { latest: null };
  return { latest: toDataExport(deps, row, await deps.jobs.status(row.id), language) };
}

function toDataExport(
  deps: DataExportDeps,
  row: DataExportTable,
  job: JobStatus | null,
  language: string,
): DataExport {
  // Ready once its zip is stored (a moment before its job is marked succeeded).
  const ready = row.file !== null;
  const state: DataExport['state'] = ready
    ? 'ready'
    : row.ready_at !== null
      ? 'expired'
      : job?.state === 'queued' || job?.state === 'running'
        ? job.state
        : 'failed';
  return {
    exportId: row.id,
    state,
    progress: state === 'ready' || state === 'expired' ? 1 : (job?.progress ?? 0),
    createdAt: new Date(row.created_at).toISOString(),
    readyAt: row.ready_at ? new Date(row.ready_at).toISOString() : null,
    expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
    size: row.size === null ? null : Number(row.size),
    downloadUrl: ready ? exportLinks(deps).sign(row.id, row.user_id) : null,
    error: state === 'failed' ? textsFor(language)('notices.privacy.exportFailed') : null,
  };
}

/** A link's signature (`export`) or a ticket's (`export-ticket`): one is never the other. */
const signatureOf = (
  secret: Buffer,
  exportId: string,
  userId: string,
  expires: number,
  purpose: 'export' | 'export-ticket' = 'export',
) =>
  createHmac('sha256', secret)
    .update(`${purpose}:${exportId}:${userId}:${expires}`)
    .digest('base64url');

/** Whether `given` is `expected`, in constant time. */
const sameSignature = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const madeLinks = new WeakMap<DataExportDeps['config'], ReturnType<typeof linksSignedWith>>();

/**
 * Signs download links, each for one export and its owner, and checks them: made once per
 * configuration (the key may be read from `$DATA_DIR`, not at every status read and download).
 */
export function exportLinks(deps: Pick<DataExportDeps, 'config'>) {
  let links = madeLinks.get(deps.config);
  if (!links) {
    links = linksSignedWith(linkSecretOf(deps.config));
    madeLinks.set(deps.config, links);
  }
  return links;
}

function linksSignedWith(secret: Buffer) {
  /** A link of `purpose` for `exportId` and its owner, working for `seconds` from `nowMs`. */
  const link = (
    purpose: 'export' | 'export-ticket',
    exportId: string,
    userId: string,
    seconds: number,
    nowMs: number,
  ) => {
    const expires = Math.floor(nowMs / 1000) + seconds;
    const query = new URLSearchParams({
      exportId,
      expires: String(expires),
      [purpose === 'export' ? 'signature' : 'ticket']: signatureOf(
        secret,
        exportId,
        userId,
        expires,
        purpose,
      ),
    });
    return `${EXPORT_DOWNLOAD_PATH}?${query}`;
  };
  /** Whether `proof` was made for `purpose`, the export and `userId`, and has not expired. */
  const valid = (
    purpose: 'export' | 'export-ticket',
    fields: { exportId: string; expires: string },
    proof: string,
    userId: string,
    nowMs: number,
  ) => {
    const at = Number(fields.expires);
    if (!/^\d{1,12}$/.test(fields.expires) || at * 1000 < nowMs) return false;
    return sameSignature(proof, signatureOf(secret, fields.exportId, userId, at, purpose));
  };
  return {
    /** A link to the export's zip for its owner `userId`, working for an hour from `nowMs`. */
    sign: (exportId: string, userId: string, nowMs = Date.now()) =>
      link('export', exportId, userId, EXPORT_LINK_SECONDS, nowMs),
    /** Whether a link's fields were signed for `userId` and have not expired. */
    verify: (
      fields: { exportId: string; expires: string; signature: string },
      userId: string,
      nowMs = Date.now(),
    ) => valid('export', fields, fields.signature, userId, nowMs),
    /**
     * A link to the zip that needs no session, for its owner `userId`, working for
     * {@link EXPORT_TICKET_SECONDS} from `nowMs`.
     */
    ticket: (exportId: string, userId: string, nowMs = Date.now()) =>
      link('export-ticket', exportId, userId, EXPORT_TICKET_SECONDS, nowMs),
    /** Whether a ticket's fields were signed for `userId` and have not expired. */
    verifyTicket: (
      fields: { exportId: string; expires: string; ticket: string },
      userId: string,
      nowMs = Date.now(),
    ) => valid('export-ticket', fields, fields.ticket, userId, nowMs),
  };
}

/**
 * The zip a download link names for the signed-in `callerId`, or `null` when the link is not a
 * valid one of its owner's (unsigned, for another person, expired), the caller is not its owner,
 * or the zip is gone (expired, the account closed).
 */
export function exportDownload(
  deps: DataExportDeps,
  link: { exportId: string; expires: string; signature: string },
  callerId: string,
): Promise<{ key: string; fileName: string } | null> {
  return zipOf(
    deps,
    link.exportId,
    (ownerId) => ownerId === callerId && exportLinks(deps).verify(link, ownerId),
  );
}

/**
 * A link to the ready zip that the owner's browser downloads by itself, to disk, without the
 * session (so however large), working for a minute: for the signed-in caller's own download
 * link (`downloadUrl` of the export's status). Refused as missing when that link would be.
 */
export async function exportTicket(
  deps: DataExportDeps,
  downloadUrl: string,
  callerId: string,
): Promise<ExportTicket> {
  // Text that is no address at all (`http://`) is no download link either: not a failure.
  if (!URL.canParse(downloadUrl, 'http://mates.invalid')) throw missing('notices.notFound.export');
  const url = new URL(downloadUrl, 'http://mates.invalid');
  const link = {
    exportId: url.searchParams.get('exportId') ?? '',
    expires: url.searchParams.get('expires') ?? '',
    signature: url.searchParams.get('signature') ?? '',
  };
  if (url.pathname !== EXPORT_DOWNLOAD_PATH || !(await exportDownload(deps, link, callerId)))
    throw missing('notices.notFound.export');
  return { url: exportLinks(deps).ticket(link.exportId, callerId) };
}

/** The zip a ticket ({@link exportTicket}) names, or `null` when it is not valid or gone. */
export function ticketDownload(
  deps: DataExportDeps,
  link: { exportId: string; expires: string; ticket: string },
): Promise<{ key: string; fileName: string } | null> {
  return zipOf(deps, link.exportId, (ownerId) => exportLinks(deps).verifyTicket(link, ownerId));
}

/**
 * Where export `exportId`'s zip is and what it is called, when `allowed` for its owner; `null`
 * for no such export, one not allowed, or a zip gone (expired, its owner closing).
 */
async function zipOf(
  deps: DataExportDeps,
  exportId: string,
  allowed: (ownerId: string) => boolean,
): Promise<{ key: string; fileName: string } | null> {
  if (!/^[0-9a-f-]{36}$/.test(exportId)) return null;
  const row = await dataExportById(deps.db, exportId);
  if (!row || !allowed(row.user_id)) return null;
  if (!row.file || !row.expires_at || new Date(row.expires_at).getTime() < Date.now()) return null;
  if (!(await openAccountOf(deps.db, row.user_id))) return null;
  const day = new Date(row.ready_at ?? row.created_at).toISOString().slice(0, 10);
  return { key: row.file, fileName: `mates-data-${day}.zip` };
}

/** Removes the zips that expired (one person's, or everyone's); their rows read `expired`. */
export async function removeExpiredExports(
  deps: Pick<DataExportDeps, 'db' | 'media'>,
  userId?: string,
): Promise<number> {
  const expired = await expiredDataExports(deps.db, now(), userId);
  for (const row of expired) {
    await deps.media.remove(row.file!);
    await clearDataExportFile(deps.db, row.id);
  }
  return expired.length;
}

/**
 * One run of the export job: writes the zip into `$DATA_DIR/tmp/exports` (a run again after a
 * kill starts it afresh), stores it, records it and mails its owner.
 */
async function runDataExport(
  deps: DataExportDeps,
  job: JobContext<ExportPayload>,
): Promise<{ file: string }> {
  const user = await openAccountOf(deps.db, job.payload.userId);
  if (!user) throw new Error('the account is closed');
  const folder = path.join(deps.config.dataDir, 'tmp', 'exports');
  await fsp.mkdir(folder, { recursive: true });
  const file = path.join(folder, `${job.id}.zip`);
  try {
    await buildDataZip(deps, user, file, {
      signal: job.signal,
      progress: (fraction) => void job.progress(fraction * 0.95).catch(() => {}),
    });
    const key = `exports/${randomBytes(18).toString('base64url')}.zip`;
    const { size } = await fsp.stat(file);
    await deps.media.putFile(key, file, 'application/zip');
    const readyAt = now();
    const expiresAt = new Date(Date.now() + EXPORT_KEEP_MS).toISOString();
    await markDataExportReady(deps.db, job.id, { file: key, size, readyAt, expiresAt });
    // Its owner may have begun deleting the account while it was stored: the deletion removes
    // the zips it saw recorded, not one recorded after it looked, so this one goes here.
    if (!(await openAccountOf(deps.db, user.id))) {
      await deps.media.remove(key);
      throw new Error('the account is closed');
    }
    // One zip per person is kept: the one before goes (its export reads expired).
    for (const older of await olderDataExports(deps.db, user.id, job.id)) {
      await deps.media.remove(older.file!);
      await clearDataExportFile(deps.db, older.id);
    }
    await deps.mailer
      .send(dataReadyMail(user.email, deps.config.publicUrl, expiresAt, user.language))
      .catch((error: unknown) =>
        deps.log.error(
          `the data export mail of ${job.id} was not sent: ${(error as Error).message}`,
        ),
      );
    return { file: key };
  } finally {
    await fsp.rm(file, { force: true });
  }
}

/**
 * Writes everything of `user`'s into a zip at `file`: each chat path as JSON and Markdown (the
 * branch export's own, its memories with it), their mates as Character Card V3 PNGs, pictures
 * and voice clips as stored, the account, reviews, favorites, follows, reports of mates,
 * messages to support, the ledger and payments as JSON.
 * `progress` hears the share of entries written.
 */
export async function buildDataZip(
  deps: Pick<DataExportDeps, 'db' | 'dialect' | 'media'>,
  user: UserTable,
  file: string,
  options: { signal: AbortSignal; progress: (fraction: number) => void },
): Promise<void> {
  const [rooms, mates, counts] = await Promise.all([
    roomsOf(deps.db, user.id),
    ownMatesOf(deps.db, user.id),
    fileCounts(deps.db, user.id),
  ]);
  const total = 13 + rooms.length * 2 + mates.length + counts.pictures + counts.clips;
  let done = 0;
  let told = 0;
  const onEntry = () => {
    done++;
    const at = Date.now();
    if (at - told < 500) return;
    told = at;
    options.progress(Math.min(done / total, 1));
  };
  await writeZip(file, entriesOf(deps, user, rooms, mates), { signal: options.signal, onEntry });
  options.progress(1);
}

type RoomRow = Awaited<ReturnType<typeof roomsOf>>[number];
type OwnMate = Awaited<ReturnType<typeof ownMatesOf>>[number];

const json = (value: unknown) => JSON.stringify(value, null, 2);

async function* entriesOf(
  deps: Pick<DataExportDeps, 'db' | 'dialect' | 'media'>,
  user: UserTable,
  rooms: RoomRow[],
  mates: OwnMate[],
): AsyncIterable<ZipEntry> {
  const { db, media } = deps;
  yield { name: 'README.md', source: { kind: 'bytes', make: async () => README } };
  yield {
    name: 'account.json',
    source: { kind: 'bytes', make: async () => json(accountJson(await accountOf(db, user.id))) },
  };
  // A group chat by the group's name: its first member's read as a one-to-one chat with it.
  const chatName = (room: RoomRow) =>
    `chats/${safeName(room.group_name ?? room.mate_name)} - ${room.id}`;
  yield {
    name: 'chats/index.json',
    source: {
      kind: 'bytes',
      make: async () => {
        const groups = rooms.filter((room) => room.group_name !== null).map((room) => room.id);
        const members = groups.length === 0 ? [] : await membersOfRooms(db, groups);
        return json(
          rooms.map((room) => ({
            roomId: room.id,
            mate: { mateId: room.mate_id, name: room.mate_name },
            // A group chat: its name and the mates in it now, in their order.
            group:
              room.group_name === null
                ? null
                : {
                    name: room.group_name,
                    members: members
                      .filter((member) => member.room_id === room.id && member.left_at === null)
                      .map((member) => ({ mateId: member.mate_id, name: member.name })),
                  },
            // Paths of one chat share its first path's id; a branch names where it came from.
            chatId: room.family_id ?? room.id,
            branchedFrom: room.parent_room_id,
            createdAt: room.created_at,
            updatedAt: room.updated_at,
            files: [`${chatName(room)}.json`, `${chatName(room)}.md`],
          })),
        );
      },
    },
  };
  for (const room of rooms) {
    for (const format of ['json', 'markdown'] as const) {
      yield {
        name: `${chatName(room)}.${format === 'json' ? 'json' : 'md'}`,
        source: {
          kind: 'bytes',
          make: async () => (await exportChat({ db }, user, { roomId: room.id, format })).content,
        },
      };
    }
  }
  const studio = { db, dialect: deps.dialect, media };
  const cards: { mateId: string; name: string; visibility: string; card: string | null }[] = [];
  for (const mate of mates) {
    const name = `mates/${safeName(mate.name)} - ${mate.id}.png`;
    // A mate moderators hid has no card to take away (it would be a copy they never hid).
    cards.push({
      mateId: mate.id,
      name: mate.name,
      visibility: mate.visibility,
      card: mate.hidden_at ? null : name,
    });
    if (mate.hidden_at) continue;
    yield {
      name,
      stored: true,
      source: {
        kind: 'bytes',
        make: async () =>
          Buffer.from(
            (await exportCard(studio, user, { mateId: mate.id, format: 'png', spec: 'v3' })).data,
            'base64',
          ),
      },
    };
  }
  yield { name: 'mates/index.json', source: { kind: 'bytes', make: async () => json(cards) } };
  for (let after = ''; ;) {
    const page = await picturesPage(db, user.id, after);
    for (const picture of page) {
      yield {
        name: `pictures/${picture.id}.webp`,
        stored: true,
        source: { kind: 'stream', open: () => storedFile(media, `pictures/${picture.image_file}`) },
      };
    }
    if (page.length === 0) break;
    after = page.at(-1)!.id;
  }
  const clips: unknown[] = [];
  for (let after = ''; ;) {
    const page = await voiceClipsPage(db, user.id, after);
    for (const clip of page) {
      const ending = SPEECH_FILE_ENDINGS[clip.mime_type ?? ''] ?? clip.file!.split('.').pop();
      const name = `voice/${clip.id}.${ending}`;
      clips.push({
        file: name,
        messageId: clip.message_id,
        voice: clip.voice,
        createdAt: clip.created_at,
      });
      yield {
        name,
        stored: true,
        source: { kind: 'stream', open: () => storedFile(media, `speech/${clip.file}`) },
      };
    }
    if (page.length === 0) break;
    after = page.at(-1)!.id;
  }
  yield { name: 'voice/index.json', source: { kind: 'bytes', make: async () => json(clips) } };
  const social = socialOf(db, user.id);
  for (const part of ['reviews', 'favorites', 'follows'] as const) {
    yield {
      name: `${part}.json`,
      source: { kind: 'bytes', make: async () => json((await social)[part]) },
    };
  }
  const toTeam = writtenToTeamOf(db, user.id);
  for (const [name, part] of [
    ['reports.json', 'reports'],
    ['feedback.json', 'feedback'],
  ] as const) {
    yield { name, source: { kind: 'bytes', make: async () => json((await toTeam)[part]) } };
  }
  yield {
    name: 'sessions.json',
    source: {
      kind: 'bytes',
      make: async () =>
        json(
          (await sessionsOf(db, user.id)).map((session) => ({
            createdAt: session.created_at,
            lastSeenAt: session.last_seen_at,
            expiresAt: session.expires_at,
          })),
        ),
    },
  };
  yield {
    name: 'searches.json',
    source: { kind: 'bytes', make: async () => json(await searchesOf(db, user.id)) },
  };
  yield { name: 'ledger.json', source: { kind: 'lines', lines: () => ledgerLines(db, user.id) } };
  yield {
    name: 'payments.json',
    source: {
      kind: 'bytes',
      make: async () => {
        const [{ subscription }, payments] = await Promise.all([
          accountOf(db, user.id),
          paymentsOf(db, user.id),
        ]);
        return json({
          subscription: subscription ?? null,
          checkouts: payments.checkouts.map((row) => ({ ...row, plan: toBool(row.plan) })),
          planPayments: payments.planPayments,
        });
      },
    },
  };
}

/** The ledger as a JSON list, read a page at a time. */
async function* ledgerLines(db: Kysely<Database>, userId: string): AsyncIterable<string> {
  yield '[';
  let first = true;
  for (let after = 0; ;) {
    const page = await ledgerPage(db, userId, after);
    for (const row of page) {
      yield `${first ? '\n' : ',\n'}  ${JSON.stringify({ ...row, id: Number(row.id) })}`;
      first = false;
    }
    if (page.length === 0) break;
    after = Number(page.at(-1)!.id);
  }
  yield first ? ']\n' : '\n]\n';
}

async function storedFile(media: MediaStore, key: string): Promise<Readable | null> {
  const stream = await media.read(key);
  return stream ? Readable.fromWeb(stream as never) : null;
}

function accountJson({ user, personas, memorySettings }: Awaited<ReturnType<typeof accountOf>>) {
  return {
    format: 'mates-account',
    version: 1,
    exportedAt: now(),
    account: {
      userId: user.id,
      email: user.email,
      nickname: user.nickname,
      avatar: user.avatar,
      bio: user.bio,
      createdAt: user.created_at,
      emailVerifiedAt: user.email_verified_at,
      signIn: {
        password: user.password_hash !== null,
        google: user.google_sub !== null,
        discord: user.discord_id !== null,
      },
    },
    settings: {
      language: user.language,
      adultContent: toBool(user.nfsw),
      tags: fromJson<string[]>(user.tags, []),
      gender: user.gender,
      dailyChatsCap: user.daily_chats_cap ?? null,
      dailyGoldCoinsCap: user.daily_gold_coins_cap ?? null,
      rememberAcrossChats: memorySettings.map((setting) => ({
        mateId: setting.mate_id,
        mate: setting.name,
        on: toBool(setting.across_chats),
      })),
    },
    personas: personas.map((persona) => ({
      personaId: persona.id,
      name: persona.name,
      description: persona.description,
      avatar: persona.avatar,
      isDefault: toBool(persona.is_default),
      createdAt: persona.created_at,
      updatedAt: persona.updated_at,
    })),
  };
}

/** A name usable in a file name on every system. */
function safeName(name: string): string {
  const safe = [...name]
    .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? ' ' : char))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60);
  return safe || 'Mate';
}

const README = `# Your Mates data

Everything this account holds, as it was when this file was made.

- \`account.json\`: your e-mail address, nickname, settings and personas.
- \`chats/\`: every chat, each path of a branched chat on its own, as Mates' JSON (every
  message with all its versions, the swipes) and as Markdown to read, each named after its
  mate, or its group. \`chats/index.json\` tells which paths belong to one chat, where each
  branch came from, and a group chat's name and mates.
- The memories of each chat are in its files (\`memories\` in the JSON, "Memories" at the end
  of the Markdown): the story so far, the facts its mate wrote down and the ones you added or
  changed, with what each is about, who wrote it, whether it is pinned, the messages it came
  from and when it was written and last changed. Which mates carry facts about you into your
  other chats with them is in \`account.json\` (\`rememberAcrossChats\`).
- \`mates/\`: the mates you made, each as a Character Card V3 PNG (it opens as a picture, and
  SillyTavern and other apps import it). \`mates/index.json\` lists them.
- \`pictures/\`: the pictures drawn in your chats, by message.
- \`voice/\`: the voice clips you had messages read with; \`voice/index.json\` says which.
- \`reviews.json\`, \`favorites.json\`, \`follows.json\`: what you wrote and chose.
- \`reports.json\`: the mates you reported, why and what you wrote, and when and how the
  team dealt with each report (\`outcome\`: \`hidden\`, the mate was hidden; \`dismissed\`, it
  was not).
- \`feedback.json\`: what you wrote to support, and where you asked to be answered.
- \`sessions.json\`: where you are signed in: when each sign-in began, was last used and
  ends.
- \`searches.json\`: the words you searched for mates, each once a day, kept for a week for
  the hot words.
- \`ledger.json\`: every movement of your chats and gold coins.
- \`payments.json\`: your plan, purchases and plan payments.
`;
