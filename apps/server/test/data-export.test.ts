import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { DataExport } from '@mates/api-client';
import { createMailer, type Mail, type Mailer } from '../src/mail/mailer';
import {
  createTestApp,
  DIALECTS,
  freshDatabase,
  insertUser,
  postgresAvailable,
  signUp,
  type TestApp,
} from './harness';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { silentLogger } from '../src/logging/logger';
import { fullAccount, readZip } from './your-data-helpers';
import { readPngText } from '../src/cards/png-text';
import { exportLinks } from '../src/privacy/data-export-service';
import { DATA_EXPORTS_PER_DAY, createRateLimits } from '../src/accounts/rate-limits';
import { mediaOf } from '../src/media/media-of';

// Issue 41: "Download my data" builds one zip of everything in a durable job, mails its owner,
// and hands the zip out by a signed link of the owner's that expires.
const withPostgres = await postgresAvailable();

interface Received {
  to: string[];
  raw: string;
}

/** What `look` finds, asked again every 50 ms for up to 5 s. */
async function eventually<T>(look: () => T | Promise<T>, ok = (value: T) => Boolean(value)) {
  for (let tries = 0; ; tries++) {
    const value = await look();
    if (ok(value) || tries > 100) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(DIALECTS)('download my data on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const received: Received[] = [];
  let smtp: SMTPServer;
  let app: TestApp;

  beforeAll(async () => {
    if (skip) return;
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString(),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const smtpMailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: '/nonexistent',
      from: 'Mates <no-reply@mates.test>',
    });
    // Sign-ups read their links from `sent`; every mail also goes through the SMTP listener.
    const sent: Mail[] = [];
    const mailer: Mailer & { sent: Mail[] } = {
      sent,
      send: async (mail) => {
        sent.push(mail);
        await smtpMailer.send(mail);
      },
      describe: () => smtpMailer.describe(),
    };
    app = await createTestApp(dialect, { mailer });
    await app.deps.jobs.start();
  });
  afterAll(async () => {
    if (skip) return;
    await app.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  async function untilDone(
    client: TestApp['client'] extends (...args: never[]) => infer C ? C : never,
  ) {
    const seen: DataExport[] = [];
    for (let tries = 0; tries < 200; tries++) {
      const { latest } = await client.user.exportStatus();
      if (latest) seen.push(latest);
      if (latest && latest.state !== 'queued' && latest.state !== 'running')
        return { latest, seen };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the export did not finish');
  }

  /** A new zip of `person`'s account, built, downloaded with their session and read. */
  async function newZip(person: Awaited<ReturnType<typeof signUp>>) {
    await person.client.user.exportData();
    const { latest } = await untilDone(person.client);
    const answer = await app.app.request(latest.downloadUrl!, {
      headers: { token: person.userInfo.token },
    });
    return readZip(Buffer.from(await answer.arrayBuffer()));
  }

  it.skipIf(skip)(
    'builds one zip of the whole account, mails its owner, and serves it by its link',
    async () => {
      const person = await fullAccount(app);
      expect(await person.client.user.exportStatus()).toEqual({ latest: null });
      const started = await person.client.user.exportData();
      expect(['queued', 'running']).toContain(started.state);
      expect(started.downloadUrl).toBeNull();
      // Asking again while it is built answers the same export.
      expect((await person.client.user.exportData()).exportId).toBe(started.exportId);
      const { latest } = await untilDone(person.client);
      expect(latest).toMatchObject({ exportId: started.exportId, state: 'ready', progress: 1 });
      expect(latest.size).toBeGreaterThan(0);
      expect(new Date(latest.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 6 * 86400_000);

      // The mail goes once the zip is stored.
      const mail = await eventually(() =>
        received.find(
          (each) =>
            each.to.includes(person.userInfo.email) &&
            each.raw.includes('Subject: Your Mates data is ready'),
        ),
      );
      expect(mail?.raw.replace(/=\r?\n/g, '')).toContain('http://mates.test/#/profile');

      const answer = await app.app.request(latest.downloadUrl!, {
        headers: { token: person.userInfo.token },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/zip');
      expect(answer.headers.get('content-disposition')).toMatch(
        /^attachment; filename="mates-data-/,
      );
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(bytes.length).toBe(latest.size);
      const zip = await readZip(bytes);
      const text = (name: string) => zip.get(name)!.toString('utf8');

      const account = JSON.parse(text('account.json'));
      expect(account.account).toMatchObject({
        email: person.userInfo.email,
        nickname: person.nickname,
        signIn: { password: true, google: false, discord: false },
      });
      expect(account.settings).toMatchObject({ language: 'en', adultContent: false });
      expect(account.personas).toEqual([
        expect.objectContaining({ personaId: person.personaId, name: 'Captain Vale' }),
      ]);

      // Both paths of the chat, each as JSON (every version) and Markdown.
      const chats = JSON.parse(text('chats/index.json'));
      expect(chats.map((chat: { roomId: string }) => chat.roomId).sort()).toEqual(
        [person.roomId, person.branchId].sort(),
      );
      const branch = chats.find((chat: { roomId: string }) => chat.roomId === person.branchId);
      expect(branch).toMatchObject({ chatId: person.roomId, branchedFrom: person.roomId });
      const main = chats.find((chat: { roomId: string }) => chat.roomId === person.roomId);
      const chatJson = JSON.parse(text(main.files[0]));
      const reply = chatJson.messages.find(
        (message: { messageId: string }) => message.messageId === person.replyId,
      );
      expect(reply).toMatchObject({
        versions: ['First answer', 'Second answer', 'Third answer'],
        shownVersion: 1,
      });
      expect(text(main.files[1])).toContain('The word is marmalade.');
      expect(text(main.files[1])).toContain('*(version 2 of 3)* Second answer');
      const branchJson = JSON.parse(text(branch.files[0]));
      expect(branchJson.room.branchedFrom).toMatchObject({ roomId: person.roomId });

      // Each path's memories, as the Memory panel orders them: the story so far, the pinned
      // fact the person added, the mate's fact they rewrote (with the message it came from).
      expect(chatJson.memories).toEqual([
        expect.objectContaining({
          memoryId: person.summaryId,
          kind: 'summary',
          about: 'story',
          author: 'mate',
          pinned: false,
          content: 'They traded words about marmalade.',
          sourceMessageIds: [person.saidId, person.replyId],
        }),
        expect.objectContaining({
          memoryId: person.addedMemoryId,
          kind: 'fact',
          about: 'person',
          author: 'person',
          pinned: true,
          content: 'My sister is called Philippa.',
          sourceMessageIds: [],
        }),
        expect.objectContaining({
          memoryId: person.rewrittenId,
          kind: 'fact',
          author: 'person',
          content: 'Likes marmalade, never jam.',
          sourceMessageIds: [person.saidId],
        }),
      ]);
      for (const memory of chatJson.memories) {
        expect(memory).toMatchObject({
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
      }
      expect(branchJson.memories).toEqual([]);
      const markdown = text(main.files[1]);
      expect(markdown).toContain('## Memories');
      expect(markdown).toContain('They traded words about marmalade.');
      expect(markdown).toContain('My sister is called Philippa.');
      expect(markdown).toContain('Likes marmalade, never jam.');

      // Their mates as Character Card V3 PNGs.
      const mates = JSON.parse(text('mates/index.json'));
      expect(mates.map((mate: { name: string }) => mate.name).sort()).toEqual([
        'Harbour Light',
        'Quiet Keeper',
      ]);
      for (const mate of mates) {
        const png = zip.get(mate.card)!;
        expect(png.subarray(1, 4).toString()).toBe('PNG');
        const card = JSON.parse(Buffer.from(readPngText(png, 'ccv3')!, 'base64').toString());
        expect(card).toMatchObject({ spec: 'chara_card_v3', data: { name: mate.name } });
      }

      expect(zip.get(`pictures/${person.pictureId}.webp`)).toEqual(person.pictureBytes);
      expect(zip.get(`voice/${person.clipId}.mp3`)).toEqual(person.clipBytes);
      expect(JSON.parse(text('reviews.json'))).toEqual([
        expect.objectContaining({
          mate_id: person.mateId,
          rating: 4,
          content: 'Kind and curious.',
        }),
      ]);
      expect(JSON.parse(text('favorites.json'))).toEqual([
        expect.objectContaining({ mate_id: person.mateId }),
      ]);
      expect(JSON.parse(text('follows.json'))).toHaveLength(1);
      const ledger = JSON.parse(text('ledger.json'));
      expect(ledger.length).toBeGreaterThan(0);
      expect(ledger[0]).toMatchObject({ user_id: person.userInfo.uuid, kind: 'grant' });
      expect(JSON.parse(text('payments.json'))).toEqual({
        subscription: null,
        checkouts: [],
        planPayments: [],
      });
      // The reports and support messages they wrote.
      expect(JSON.parse(text('reports.json'))).toEqual([
        expect.objectContaining({
          mate_id: person.mateId,
          reason: 'broken',
          content: 'The greeting stops halfway.',
          // Not dealt with yet: when it is, what the team did ('hidden' or 'dismissed').
          closed_at: null,
          outcome: null,
        }),
      ]);
      expect(JSON.parse(text('feedback.json'))).toEqual([
        expect.objectContaining({
          category: 'idea',
          content: 'A night theme, please.',
          contact: 'night@example.test',
        }),
      ]);
      const readme = text('README.md');
      expect(readme).toContain('# Your Mates data');
      for (const name of ['reports.json', 'feedback.json', 'memories']) {
        expect(readme).toContain(name);
      }
    },
  );

  it.skipIf(skip)(
    'tells where the account is signed in and what it searched, never a token',
    async () => {
      // The zip is to hold everything the account holds: its sessions (when each began, was
      // last used, ends) and the searches kept of it were left out (found by an outside review).
      const person = await signUp(app);
      await app.client().user.login({ email: person.userInfo.email, password: 'correct horse' });
      expect((await person.client.mate.search({ keyword: 'Kai' })).list.length).toBeGreaterThan(0);
      const zip = await newZip(person);
      const sessions = JSON.parse(zip.get('sessions.json')!.toString('utf8'));
      expect(sessions).toHaveLength(2);
      for (const session of sessions) {
        expect(Object.keys(session).sort()).toEqual(['createdAt', 'expiresAt', 'lastSeenAt']);
      }
      expect(JSON.parse(zip.get('searches.json')!.toString('utf8'))).toEqual([
        { word: 'kai', day: new Date().toISOString().slice(0, 10) },
      ]);
      const rows = await app.db
        .selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', person.userInfo.uuid)
        .execute();
      const everything = [...zip.values()].map((bytes) => bytes.toString('latin1')).join('\n');
      for (const secret of [person.userInfo.token, ...rows.map((row) => row.token_hash)])
        expect(everything).not.toContain(secret);
      expect(zip.get('README.md')!.toString('utf8')).toContain('sessions.json');
    },
  );

  it.skipIf(skip)(
    'builds a few zips a day for one person, then says when to ask again, without mailing',
    async () => {
      // Each zip is the whole account built again and a mail to its owner: asked for without
      // end (a script's), it mailed the address each time and held the one export line of the
      // server for everyone else (found by an outside review).
      // The tests' limits are a thousand times the real ones: this one is put back as it is.
      const testLimit = app.deps.limits.dataExport;
      app.deps.limits.dataExport = createRateLimits().dataExport;
      onTestFinished(() => {
        app.deps.limits.dataExport = testLimit;
      });
      const person = await signUp(app);
      // A zip stays the answer until its job has ended (its mail sent): asking meanwhile
      // answers it again, and spends nothing.
      const built = new Set<string>();
      while (built.size < DATA_EXPORTS_PER_DAY) {
        const { exportId } = await person.client.user.exportData();
        if (built.has(exportId)) await new Promise((resolve) => setTimeout(resolve, 50));
        else {
          built.add(exportId);
          await untilDone(person.client);
        }
      }
      const mails = () =>
        received.filter(
          (each) =>
            each.to.includes(person.userInfo.email) &&
            each.raw.includes('Subject: Your Mates data is ready'),
        ).length;
      await eventually(() => mails() === DATA_EXPORTS_PER_DAY);
      const { latest } = await person.client.user.exportStatus();
      await vi.waitFor(
        () => expect(person.client.user.exportData()).rejects.toMatchObject({ code: 5007 }),
        { timeout: 10_000, interval: 50 },
      );
      expect((await person.client.user.exportStatus()).latest).toEqual(latest);
      expect(mails()).toBe(DATA_EXPORTS_PER_DAY);
      // Someone else is not held back by it.
      const other = await signUp(app);
      expect(['queued', 'running']).toContain((await other.client.user.exportData()).state);
      await untilDone(other.client);
    },
  );

  it.skipIf(skip)('names a group chat by the group, in its files and the index', async () => {
    // Found from outside: a group chat's files were named after its first member, and the
    // index called it a chat with that mate.
    const person = await signUp(app);
    const mates = await app.db
      .selectFrom('mates')
      .select(['id', 'name'])
      .where('name', 'in', ['Lyra Moonwhisper', 'Kai Tanaka'])
      .orderBy('name', 'desc')
      .execute();
    const group = await person.client.room.createGroup({
      mateIds: mates.map((mate) => mate.id),
      name: 'Lighthouse club',
    });
    const zip = await newZip(person);
    const chats = JSON.parse(zip.get('chats/index.json')!.toString('utf8'));
    expect(chats).toEqual([
      expect.objectContaining({
        roomId: group.roomId,
        group: {
          name: 'Lighthouse club',
          members: mates.map((mate) => ({ mateId: mate.id, name: mate.name })),
        },
        files: [
          `chats/Lighthouse club - ${group.roomId}.json`,
          `chats/Lighthouse club - ${group.roomId}.md`,
        ],
      }),
    ]);
    expect(zip.has(`chats/Lighthouse club - ${group.roomId}.md`)).toBe(true);
  });

  it.skipIf(skip)(
    'counts only the zips it builds: asks sent at once, or while the last of the day is built',
    async () => {
      // Found from outside: ten asks at once answered one export five times and refused five,
      // and the refused ones stayed counted: one zip, and the person locked out for a day. With
      // the day's last zip being built, asking again was refused rather than answered with it.
      const testLimit = app.deps.limits.dataExport;
      const limiter = createRateLimits().dataExport;
      app.deps.limits.dataExport = limiter;
      onTestFinished(() => {
        app.deps.limits.dataExport = testLimit;
      });
      const person = await signUp(app);
      const userId = person.userInfo.uuid;
      const atOnce = await Promise.all(
        Array.from({ length: 10 }, () => person.client.user.exportData()),
      );
      expect(new Set(atOnce.map((each) => each.exportId)).size).toBe(1);
      await untilDone(person.client);
      // (Its job ends a moment after the zip reads ready; until then it is still the answer.)
      await eventually(
        () => app.deps.jobs.status(atOnce[0]!.exportId),
        (job) => job?.state === 'succeeded',
      );
      expect((await limiter.get(userId))?.consumedPoints).toBe(1);

      // The day's last zip: asked for twice at once, both answers are that zip.
      await limiter.penalty(userId, DATA_EXPORTS_PER_DAY - 2);
      const [last, again] = await Promise.all([
        person.client.user.exportData(),
        person.client.user.exportData(),
      ]);
      expect(again.exportId).toBe(last.exportId);
      await untilDone(person.client);
      await eventually(
        () => app.deps.jobs.status(last.exportId),
        (job) => job?.state === 'succeeded',
      );
      expect((await limiter.get(userId))?.consumedPoints).toBe(DATA_EXPORTS_PER_DAY);
      await expect(person.client.user.exportData()).rejects.toMatchObject({ code: 5007 });
      expect((await limiter.get(userId))?.consumedPoints).toBe(DATA_EXPORTS_PER_DAY);
    },
  );

  it.skipIf(skip)(
    "answers the day's last zip to an ask whose check came between another's look and count",
    async () => {
      // Found by CI on PostgreSQL: two asks at once for the day's last zip, one refused "Too
      // many attempts". The second looked for a zip being built before the first had written
      // its record, and read the day's count after the first had spent its last point. Here
      // that order is made sure: the first's count is read once the second has looked, the
      // second's once the first has spent.
      const testLimit = app.deps.limits.dataExport;
      const limiter = createRateLimits().dataExport;
      onTestFinished(() => {
        app.deps.limits.dataExport = testLimit;
      });
      const person = await signUp(app);
      const userId = person.userInfo.uuid;
      await limiter.penalty(userId, DATA_EXPORTS_PER_DAY - 1);
      let secondLooked = () => {};
      const looked = new Promise<void>((resolve) => (secondLooked = resolve));
      let firstSpent = () => {};
      const spent = new Promise<void>((resolve) => (firstSpent = resolve));
      let reads = 0;
      app.deps.limits.dataExport = new Proxy(limiter, {
        get(target, key) {
          if (key === 'get')
            return async (k: string) => {
              reads += 1;
              if (reads === 1) await looked;
              else if (reads === 2) {
                secondLooked();
                await spent;
              }
              return target.get(k);
            };
          if (key === 'penalty')
            return async (k: string, points?: number) => {
              const answer = await target.penalty(k, points);
              firstSpent();
              return answer;
            };
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
      const [first, second] = await Promise.all([
        person.client.user.exportData(),
        person.client.user.exportData(),
      ]);
      expect(second.exportId).toBe(first.exportId);
      expect((await limiter.get(userId))?.consumedPoints).toBe(DATA_EXPORTS_PER_DAY);
      await untilDone(person.client);
    },
  );

  it.skipIf(skip)(
    "serves the zip to its link with its owner's session only: signed out, sign in first",
    async () => {
      const person = await signUp(app);
      const other = await signUp(app);
      await person.client.user.exportData();
      const { latest } = await untilDone(person.client);
      const link = latest.downloadUrl!;
      // The owner's session with the link: the zip.
      const owner = await app.app.request(link, { headers: { token: person.userInfo.token } });
      expect(owner.status).toBe(200);
      expect(Buffer.from(await owner.arrayBuffer()).length).toBe(latest.size);
      // The link alone (a mail's link opened signed out, a link someone passed on): the envelope
      // of a session that has expired, which the app answers by asking to sign in.
      for (const headers of [{}, { token: 'not-a-session' }] as Record<string, string>[]) {
        const alone = await app.app.request(link, { headers });
        expect(alone.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await alone.json()).toEqual({ c: 5002, m: 'login expired', d: null });
      }
      // Another person's session with the owner's link finds nothing, nor do they with a link
      // of that export signed for them.
      const theirs = { headers: { token: other.userInfo.token } };
      expect((await app.app.request(link, theirs)).status).toBe(404);
      const forThem = exportLinks(app.deps).sign(latest.exportId, other.userInfo.uuid);
      expect((await app.app.request(forThem, theirs)).status).toBe(404);
      // Its owner signed out: the link stops working with that session.
      await person.client.user.logout();
      expect(
        await (await app.app.request(link, { headers: { token: person.userInfo.token } })).json(),
      ).toMatchObject({ c: 5002 });
      const again = await app
        .client()
        .user.login({ email: person.userInfo.email, password: 'correct horse' });
      expect((await app.app.request(link, { headers: { token: again.token } })).status).toBe(200);
    },
  );

  it.skipIf(skip)(
    'hands its owner a ticket the browser downloads by itself, for a minute, and nobody else',
    async () => {
      const person = await signUp(app);
      const other = await signUp(app);
      await person.client.user.exportData();
      const { latest } = await untilDone(person.client);
      const { url } = await person.client.user.exportTicket({ downloadUrl: latest.downloadUrl! });
      expect(url).toMatch(/^\/api\/user\/exportDownload\?exportId=.+&ticket=/);
      // No session: the browser opens it as a download, the zip whole.
      const answer = await app.app.request(url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-disposition')).toMatch(
        /^attachment; filename="mates-data-/,
      );
      expect(Buffer.from(await answer.arrayBuffer()).length).toBe(latest.size);
      // Another person cannot have one for the owner's link, nor use a ticket made for
      // themselves on the owner's zip; a link's signature is no ticket.
      await expect(
        other.client.user.exportTicket({ downloadUrl: latest.downloadUrl! }),
      ).rejects.toMatchObject({ code: 4004 });
      const link = new URL(latest.downloadUrl!, 'http://mates.test');
      const forged = new URL(
        exportLinks(app.deps).ticket(latest.exportId, other.userInfo.uuid),
        link,
      );
      expect((await app.app.request(forged.pathname + forged.search)).status).toBe(404);
      const signatureAsTicket = `${url.split('&ticket=')[0]}&ticket=${link.searchParams.get('signature')}`;
      expect((await app.app.request(signatureAsTicket)).status).toBe(404);
      // A minute later it stops working; so does one for a link that is not a download link.
      const late = exportLinks(app.deps).ticket(
        latest.exportId,
        person.userInfo.uuid,
        Date.now() - 61_000,
      );
      expect((await app.app.request(late)).status).toBe(404);
      await expect(
        person.client.user.exportTicket({ downloadUrl: '/api/somewhere/else' }),
      ).rejects.toMatchObject({ code: 4004 });
      // Nor for one that is no address at all: no link, not a failure of the server.
      for (const downloadUrl of ['http://', '//[', 'http://[::'])
        await expect(person.client.user.exportTicket({ downloadUrl })).rejects.toMatchObject({
          code: 4004,
        });
      // Bad input: a clear envelope, nothing made.
      await expect(person.client.user.exportTicket({ downloadUrl: '' })).rejects.toMatchObject({
        code: 4000,
      });
    },
  );

  it.skipIf(skip)(
    'leaves no zip behind when the account is deleted while its zip is being stored',
    async () => {
      // A zip being stored (a large one to a bucket takes a while) when its owner deletes the
      // account: the zip stored a moment later is removed, not kept for ever with nothing
      // naming it (found by an outside review).
      const person = await fullAccount(app);
      const media = mediaOf(app.deps.config);
      const putFile = media.putFile;
      let storing!: (key: string) => void;
      const stored = new Promise<string>((resolve) => (storing = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let put: Promise<void> | null = null;
      media.putFile = async (key, file, contentType) => {
        if (!key.startsWith('exports/')) return putFile(key, file, contentType);
        storing(key);
        await released;
        put = putFile(key, file, contentType);
        return put;
      };
      try {
        await person.client.user.exportData();
        const key = await stored;
        await person.client.user.deleteAccount({ password: 'correct horse', publicMates: 'keep' });
        release();
        await eventually(() => put !== null);
        await put;
        await eventually(
          () => media.stat(key),
          (info) => info === null,
        );
        expect(await media.stat(key)).toBeNull();
        expect(
          await app.db
            .selectFrom('data_exports')
            .select('id')
            .where('user_id', '=', person.userInfo.uuid)
            .execute(),
        ).toEqual([]);
      } finally {
        media.putFile = putFile;
        release();
      }
    },
  );

  it.skipIf(skip)(
    'serves the zip to a link signed for its owner only, until it expires',
    async () => {
      const person = await signUp(app);
      const other = await signUp(app);
      await person.client.user.exportData();
      const { latest } = await untilDone(person.client);
      const link = new URL(latest.downloadUrl!, 'http://mates.test');
      const exportId = link.searchParams.get('exportId')!;
      // Every download below is asked for with the owner's session.
      const asOwner = { headers: { token: person.userInfo.token } };
      expect((await app.app.request(link.pathname + link.search, asOwner)).status).toBe(200);

      // The same export signed for another person, a changed signature, an expired link.
      const links = exportLinks(app.deps);
      const forOther = new URL(links.sign(exportId, other.userInfo.uuid), 'http://mates.test');
      expect((await app.app.request(forOther.pathname + forOther.search, asOwner)).status).toBe(
        404,
      );
      const changed = new URL(link);
      changed.searchParams.set('signature', `${link.searchParams.get('signature')!.slice(1)}A`);
      expect((await app.app.request(changed.pathname + changed.search, asOwner)).status).toBe(404);
      const old = new URL(
        links.sign(exportId, person.userInfo.uuid, Date.now() - 2 * 3600_000),
        'http://mates.test',
      );
      expect((await app.app.request(old.pathname + old.search, asOwner)).status).toBe(404);
      // Another person sees only their own exports.
      expect(await other.client.user.exportStatus()).toEqual({ latest: null });
      const media = mediaOf(app.deps.config);

      // Gathered again: the new zip replaces the one before, whose link stops working.
      const firstFile = (
        await app.db
          .selectFrom('data_exports')
          .select('file')
          .where('id', '=', exportId)
          .executeTakeFirstOrThrow()
      ).file!;
      // (Its job is marked succeeded a moment after the zip is stored; asked for before
      // that, the same export is the answer.)
      await eventually(
        () => app.deps.jobs.status(exportId),
        (job) => job?.state === 'succeeded',
      );
      const again = await person.client.user.exportData();
      expect(again.exportId).not.toBe(exportId);
      const second = (await untilDone(person.client)).latest;
      expect(second).toMatchObject({ exportId: again.exportId, state: 'ready' });
      // (The zip before goes a moment after the new one reads ready.)
      expect(
        await eventually(
          () => media.stat(firstFile),
          (info) => info === null,
        ),
      ).toBeNull();
      expect((await app.app.request(link.pathname + link.search, asOwner)).status).toBe(404);
      const secondLink = new URL(second.downloadUrl!, 'http://mates.test');
      expect((await app.app.request(secondLink.pathname + secondLink.search, asOwner)).status).toBe(
        200,
      );

      // Past its time, the zip goes and the export reads expired.
      const row = await app.db
        .selectFrom('data_exports')
        .select('file')
        .where('id', '=', again.exportId)
        .executeTakeFirstOrThrow();
      await app.db
        .updateTable('data_exports')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', again.exportId)
        .execute();
      const expired = (await person.client.user.exportStatus()).latest;
      expect(expired).toMatchObject({ state: 'expired', downloadUrl: null });
      expect(
        await eventually(
          () => app.deps.jobs.status(again.exportId),
          (job) => job?.state === 'succeeded',
        ),
      ).toMatchObject({ state: 'succeeded' });
      expect(await media.stat(row.file!)).toBeNull();
      expect((await app.app.request(secondLink.pathname + secondLink.search, asOwner)).status).toBe(
        404,
      );
    },
  );
});

describe.each(DIALECTS)('a zip past its time on a running server on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  it.skipIf(skip)('is removed without its owner looking or a restart', async () => {
    // The mail promises that the zip is removed once its time is up; a server that ran on kept
    // it (everything of a person's) until its owner looked again or the server restarted
    // (found by an outside review).
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-expiring-'));
    const database = dialect === 'postgres' ? await freshDatabase('postgres') : null;
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      PUBLIC_URL: 'http://mates.test',
      SPEECH_PROVIDER: 'none',
      ...(database?.url && { DATABASE_URL: database.url }),
    });
    const running = await startServer(config, silentLogger(), { sweepEveryMs: 200 });
    try {
      const { db } = running.deps;
      await insertUser(db, { id: 'exporter', email: 'exporter@example.com', nickname: 'Ex' });
      const media = mediaOf(running.deps.config);
      const key = 'exports/expiringzip000000000001.zip';
      await media.put(key, Buffer.from('PK'), 'application/zip');
      const id = randomUUID();
      const at = new Date(Date.now() - 8 * 86400_000).toISOString();
      await db
        .insertInto('data_exports')
        .values({
          id,
          user_id: 'exporter',
          file: key,
          size: 2,
          created_at: at,
          ready_at: at,
          expires_at: new Date(Date.now() - 1000).toISOString(),
        })
        .execute();
      expect(
        await eventually(
          () => media.stat(key),
          (info) => info === null,
        ),
      ).toBeNull();
      expect(
        await db.selectFrom('data_exports').select('file').where('id', '=', id).execute(),
      ).toEqual([{ file: null }]);
    } finally {
      await running.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
