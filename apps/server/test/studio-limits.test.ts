import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SaveMatePayload } from '@mates/api-client';
import type { RateLimiterMemory } from 'rate-limiter-flexible';
import { createRateLimits, type RateLimits } from '../src/accounts/rate-limits';
import { MAX_MATES_PER_USER } from '../src/catalog/own-mate-service';
import { portraitKey, writePortrait } from '../src/catalog/portrait-files';
import { mediaOf } from '../src/media/media-of';
import { portraitJobs } from '../src/catalog/portrait-upload';
import { writePngText } from '../src/cards/png-text';
import { DIALECTS, mateRow, postgresAvailable, signUp, startTestServer } from './harness';

// Review of issue #14, findings 1, 2 and 8: what one account (or one address) can make the
// server store, compute and queue is bounded; imported card pictures follow the upload rules.
const withPostgres = await postgresAvailable();

const draft = (name: string): SaveMatePayload => ({
  name,
  tagline: '',
  description: 'A ferry pilot who knows every sandbank.',
  personality: 'steady',
  scenario: 'Fog on the river.',
  first_mes: 'All aboard, {{user}}.',
  mes_example: '',
  creator_notes: '',
  system_prompt: '',
  alternate_greetings: [],
  tags: [],
  gender: 'male',
  nsfw: false,
  visibility: 'private',
});

const CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Odile Marsh',
    description: 'A map maker who draws coasts that are not there yet.',
    personality: 'curious',
    scenario: 'Her studio at dawn.',
    first_mes: 'Mind the ink, {{user}}.',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    alternate_greetings: [],
    tags: [],
    extensions: {},
  },
};

const GPS = '52.370216N 4.895168E';

/** A real PNG carrying a card, an eXIf chunk with GPS data and a tEXt chunk naming a place. */
async function cardPng(width: number, height: number): Promise<Buffer> {
  const picture = await sharp({
    create: { width, height, channels: 3, background: '#2a6f4e' },
  })
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSMapDatum: 'WGS-84' } })
    .png()
    .toBuffer();
  const located = writePngText(picture, 'Comment', `Taken at ${GPS}`);
  return writePngText(located, 'chara', Buffer.from(JSON.stringify(CARD)).toString('base64'));
}

/** `png` with its IHDR claiming `width`×`height` (CRC fixed): a decompression bomb's header. */
function claimingSize(png: Buffer, width: number, height: number): Buffer {
  const bomb = Buffer.from(png);
  // Signature (8), length (4), "IHDR" (4), then width and height.
  bomb.writeUInt32BE(width, 16);
  bomb.writeUInt32BE(height, 20);
  bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)) >>> 0, 29);
  return bomb;
}

describe.each(DIALECTS)('studio limits on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(dialect);
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  const status = async (url: string) => (await fetch(server.base + url)).status;
  const liveMates = async (creatorId: string) =>
    Number(
      (
        await server.db
          .selectFrom('mates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('creator_id', '=', creatorId)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const seeded = async (name: string) =>
    (await server.client().mate.search({ keyword: name })).list.find((mate) => mate.name === name)!
      .mateId;

  /** Runs `call` with the real `limit` in place until it is refused; the answers in order. */
  async function exhaust(limit: keyof RateLimits, call: (n: number) => Promise<unknown>) {
    const real = createRateLimits()[limit];
    const points = (real as RateLimiterMemory).points;
    server.deps.limits[limit] = real;
    try {
      const answers: string[] = [];
      for (let n = 0; n <= points; n++)
        answers.push(
          await call(n).then(
            () => 'ok',
            (error: { code: number; message: string }) => `${error.code} ${error.message}`,
          ),
        );
      return { points, answers };
    } finally {
      server.deps.limits[limit] = createRateLimits(1000)[limit];
    }
  }

  const refusedAfterAll = ({ points, answers }: { points: number; answers: string[] }) => {
    expect(points).toBeGreaterThan(0);
    expect(answers.slice(0, points).every((answer) => answer === 'ok')).toBe(true);
    expect(answers[points]).toMatch(/^5007 Too many attempts\. Please try again in \d+ \w+\.$/);
  };

  it.skipIf(skip)(
    'limits imports and previews per user; a refused import creates nothing',
    async () => {
      const user = await signUp(server);
      const other = await signUp(server);
      const previews = await exhaust('previewCard', () =>
        user.client.mate.previewCard({ card: CARD }),
      );
      refusedAfterAll(previews);
      await expect(other.client.mate.previewCard({ card: CARD })).resolves.toBeTruthy();

      const imports = await exhaust('importCard', () =>
        user.client.mate.importCard({ card: CARD }),
      );
      refusedAfterAll(imports);
      expect(await liveMates(user.userInfo.uuid)).toBe(imports.points);
      await expect(other.client.mate.importCard({ card: CARD })).resolves.toBeTruthy();
    },
  );

  it.skipIf(skip)('limits copies, portrait changes and new mates per user', async () => {
    const user = await signUp(server);
    const mate = await user.client.mate.saveMate(draft('Limited Original'));
    const copies = await exhaust('duplicateMate', () =>
      user.client.mate.duplicateMate({ mateId: mate.mateId }),
    );
    refusedAfterAll(copies);
    expect(await liveMates(user.userInfo.uuid)).toBe(1 + copies.points);

    const [choice] = await user.client.mate.portraitChoices({ seed: 'Limited' });
    refusedAfterAll(
      await exhaust('setPortrait', () =>
        user.client.mate.setPortrait({ mateId: mate.mateId, choiceId: choice!.choiceId }),
      ),
    );

    const creator = await signUp(server);
    const created = await exhaust('createMate', (n) =>
      creator.client.mate.saveMate(draft(`Limited New ${n}`)),
    );
    refusedAfterAll(created);
    expect(await liveMates(creator.userInfo.uuid)).toBe(created.points);
    // Editing is not creating: saving an existing mate still works.
    server.deps.limits.createMate = createRateLimits().createMate;
    try {
      for (let n = 0; n <= created.points; n++)
        await expect(
          user.client.mate.saveMate({ ...draft('Limited Original'), mateId: mate.mateId }),
        ).resolves.toMatchObject({ mateId: mate.mateId });
    } finally {
      server.deps.limits.createMate = createRateLimits(1000).createMate;
    }
  });

  it.skipIf(skip)(
    `keeps at most ${MAX_MATES_PER_USER} mates per user, however they are made`,
    async () => {
      const user = await signUp(server);
      const rows = Array.from({ length: MAX_MATES_PER_USER - 1 }, (_, n) =>
        mateRow(user.userInfo.uuid, { name: `Quota ${n}`, visibility: 'private' }),
      );
      await server.db.insertInto('mates').values(rows).execute();
      const last = await user.client.mate.saveMate(draft('Quota Last'));
      expect(await liveMates(user.userInfo.uuid)).toBe(MAX_MATES_PER_USER);

      const full = {
        code: 5007,
        message: expect.stringContaining(`${MAX_MATES_PER_USER} mates`),
      };
      await expect(user.client.mate.saveMate(draft('Quota Over'))).rejects.toMatchObject(full);
      await expect(user.client.mate.importCard({ card: CARD })).rejects.toMatchObject(full);
      await expect(user.client.mate.duplicateMate({ mateId: last.mateId })).rejects.toMatchObject(
        full,
      );
      const png = await cardPng(600, 900);
      await expect(
        user.client.mate.importCard({ png: png.toString('base64') }),
      ).rejects.toMatchObject(full);
      expect(await liveMates(user.userInfo.uuid)).toBe(MAX_MATES_PER_USER);
      // Editing a mate is no new mate.
      await expect(
        user.client.mate.saveMate({ ...draft('Quota Last, edited'), mateId: last.mateId }),
      ).resolves.toMatchObject({ name: 'Quota Last, edited' });

      // A deleted mate makes room.
      await user.client.mate.deleteMate({ mateId: rows[0]!.id });
      await expect(user.client.mate.duplicateMate({ mateId: last.mateId })).resolves.toBeTruthy();
      await expect(user.client.mate.saveMate(draft('Quota Over'))).rejects.toMatchObject(full);
    },
  );

  it.skipIf(skip)(
    'runs a small number of picture jobs at once; the rest wait their turn',
    async () => {
      expect(portraitJobs.concurrency).toBeGreaterThan(0);
      expect(portraitJobs.concurrency).toBeLessThanOrEqual(4);
      const user = await signUp(server);
      const mate = await user.client.mate.saveMate(draft('Queued Portrait'));
      const image = await sharp({
        create: { width: 800, height: 1000, channels: 3, background: '#884422' },
      })
        .jpeg()
        .toBuffer();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const busy = Array.from({ length: portraitJobs.concurrency }, () => portraitJobs(() => gate));
      const upload = user.client.mate.setPortrait({
        mateId: mate.mateId,
        image: image.toString('base64'),
      });
      try {
        // The upload waits for a free slot, and nothing about the mate changed meanwhile.
        await vi.waitFor(() => expect(portraitJobs.pendingCount).toBe(1), { timeout: 10_000 });
        expect(portraitJobs.activeCount).toBe(portraitJobs.concurrency);
        const waiting = await user.client.mate.getMateDetail({ mateId: mate.mateId });
        expect(waiting.avatar).toBe(mate.avatar);
      } finally {
        release();
      }
      await Promise.all(busy);
      const done = await upload;
      expect(done.avatar).toMatch(/\.webp$/);
    },
  );

  it.skipIf(skip)(
    'refuses at once a progressive JPEG of too many passes, which takes seconds to decode each',
    async () => {
      const user = await signUp(server);
      const mate = await user.client.mate.saveMate(draft('Many Passes'));
      const photo = await sharp({
        create: { width: 600, height: 900, channels: 3, background: '#335577' },
      })
        .jpeg({ progressive: true })
        .toBuffer();
      // The passes after the first, over and over: a valid file that costs a decode per pass.
      const scans: number[] = [];
      for (let at = 0; at < photo.length - 1; at += 1)
        if (photo[at] === 0xff && photo[at + 1] === 0xda) scans.push(at);
      const end = photo.length - 2;
      const again = photo.subarray(scans[1]!, end);
      const crafted = Buffer.concat([
        photo.subarray(0, end),
        ...Array.from({ length: 40 }, () => again),
        photo.subarray(end),
      ]);
      await expect(
        user.client.mate.setPortrait({ mateId: mate.mateId, image: crafted.toString('base64') }),
      ).rejects.toMatchObject({
        code: 4000,
        message: expect.stringMatching(/^image: is a progressive JPEG of \d+ passes; at most 100/),
      });
      // An ordinary progressive photo is welcome.
      const kept = await user.client.mate.setPortrait({
        mateId: mate.mateId,
        image: photo.toString('base64'),
      });
      expect(kept.avatar).toMatch(/\.webp$/);
    },
  );

  it.skipIf(skip)(
    'deleting a mate removes its portrait file unless another mate still shows it',
    async () => {
      const user = await signUp(server);
      const mate = await user.client.mate.saveMate(draft('Deleted Portrait'));
      const photo = await sharp({
        create: { width: 600, height: 900, channels: 3, background: '#224488' },
      })
        .jpeg()
        .toBuffer();
      const uploaded = await user.client.mate.setPortrait({
        mateId: mate.mateId,
        image: photo.toString('base64'),
      });
      const file = path.join(server.deps.config.dataDir, portraitKey(uploaded.avatar)!);
      expect(fs.existsSync(file)).toBe(true);
      await user.client.mate.deleteMate({ mateId: mate.mateId });
      expect(fs.existsSync(file)).toBe(false);
      expect(await status(uploaded.avatar)).toBe(404);
      // Other people's rooms with the deleted mate still show a face.
      const row = await server.db
        .selectFrom('mates')
        .select('avatar')
        .where('id', '=', mate.mateId)
        .executeTakeFirstOrThrow();
      expect(row.avatar).not.toBe(uploaded.avatar);
      expect(await status(row.avatar)).toBe(200);

      // Public ones too: the address people saw stops answering.
      const shown = await user.client.mate.saveMate({
        ...draft('Public Deleted'),
        visibility: 'public',
      });
      expect(await status(shown.avatar)).toBe(200);
      await user.client.mate.deleteMate({ mateId: shown.mateId });
      expect(await status(shown.avatar)).toBe(404);

      const shared = await writePortrait(mediaOf(server.deps.config), '<svg/>', '.svg');
      const [a, b] = [
        mateRow(user.userInfo.uuid, { avatar: shared, visibility: 'private' }),
        mateRow(user.userInfo.uuid, { avatar: shared, visibility: 'private' }),
      ];
      await server.db.insertInto('mates').values([a, b]).execute();
      await user.client.mate.deleteMate({ mateId: a.id });
      expect(await status(shared)).toBe(200);
      await user.client.mate.deleteMate({ mateId: b.id });
      expect(await status(shared)).toBe(404);
    },
  );

  it.skipIf(skip)(
    'an imported PNG portrait is decoded, stripped and stored as a 512×768 WebP',
    async () => {
      const user = await signUp(server);
      const png = await cardPng(600, 900);
      // The test picture really carries what must not reach visitors.
      expect(png.includes('eXIf')).toBe(true);
      expect(png.includes(GPS)).toBe(true);
      const upload = { png: png.toString('base64') };
      expect((await user.client.mate.previewCard(upload)).portraitFromCard).toBe(true);
      const mate = await user.client.mate.importCard(upload);
      expect(mate.avatar).toMatch(/\.webp$/);
      const served = Buffer.from(await (await fetch(server.base + mate.avatar)).arrayBuffer());
      const meta = await sharp(served).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 512, height: 768 });
      expect(meta.exif).toBeUndefined();
      expect(served.includes(GPS)).toBe(false);
      expect(served.includes('chara')).toBe(false);
      // Export still answers a PNG card of that picture.
      const exported = await user.client.mate.exportCard({ mateId: mate.mateId, format: 'png' });
      expect((await sharp(Buffer.from(exported.data, 'base64')).metadata()).format).toBe('png');
    },
  );

  it.skipIf(skip)(
    'a card picture that cannot be used (too small, a bomb, undecodable) gives a drawn portrait',
    async () => {
      const user = await signUp(server);
      const small = await cardPng(100, 150);
      const bomb = claimingSize(await cardPng(300, 450), 20_000, 20_000);
      const broken = claimingSize(await cardPng(300, 450), 3000, 4500);
      for (const png of [small, bomb, broken]) {
        const upload = { png: png.toString('base64') };
        const preview = await user.client.mate.previewCard(upload);
        expect(preview).toMatchObject({ portraitFromCard: false, draft: { name: 'Odile Marsh' } });
        const mate = await user.client.mate.importCard(upload);
        expect(mate).toMatchObject({ name: 'Odile Marsh', visibility: 'private' });
        expect(mate.avatar).toMatch(/\.svg$/);
        expect(await status(mate.avatar)).toBe(200);
      }
    },
  );

  it.skipIf(skip)('limits reports by address and by user', async () => {
    const kai = await seeded('Kai Tanaka');
    const lyra = await seeded('Lyra Moonwhisper');
    const byIp = await exhaust('feedbackByIp', () =>
      server.client().mate.feedback({ mateId: kai, reason: 'broken' }),
    );
    refusedAfterAll(byIp);
    const reporter = await signUp(server);
    const byUser = await exhaust('feedbackByUser', (n) =>
      reporter.client.mate.feedback({ mateId: n % 2 ? kai : lyra, reason: 'broken' }),
    );
    refusedAfterAll(byUser);
    const other = await signUp(server);
    server.deps.limits.feedbackByUser = createRateLimits().feedbackByUser;
    try {
      await expect(
        other.client.mate.feedback({ mateId: kai, reason: 'broken' }),
      ).resolves.toBeNull();
    } finally {
      server.deps.limits.feedbackByUser = createRateLimits(1000).feedbackByUser;
    }
  });

  it.skipIf(skip)('one open report per reporter and mate; none on one’s own mate', async () => {
    const creator = await signUp(server);
    const mate = await creator.client.mate.saveMate({
      ...draft('Reported Once'),
      visibility: 'public',
    });
    const reports = () =>
      server.db
        .selectFrom('mate_feedback')
        .select(['user_id', 'reason', 'content', 'closed_at'])
        .where('mate_id', '=', mate.mateId)
        .orderBy('id')
        .execute();
    await expect(
      creator.client.mate.feedback({ mateId: mate.mateId, reason: 'broken' }),
    ).rejects.toMatchObject({ code: 4003 });
    expect(await reports()).toEqual([]);

    const reporter = await signUp(server);
    await reporter.client.mate.feedback({
      mateId: mate.mateId,
      reason: 'broken',
      content: 'Loops.',
    });
    await reporter.client.mate.feedback({
      mateId: mate.mateId,
      reason: 'inappropriate',
      content: 'Insults, too.',
    });
    expect(await reports()).toEqual([
      {
        user_id: reporter.userInfo.uuid,
        reason: 'inappropriate',
        content: 'Insults, too.',
        closed_at: null,
      },
    ]);
    // Someone else's report is their own.
    const second = await signUp(server);
    await second.client.mate.feedback({ mateId: mate.mateId, reason: 'copyright' });
    expect((await reports()).map((row) => row.user_id)).toEqual([
      reporter.userInfo.uuid,
      second.userInfo.uuid,
    ]);
  });
});
