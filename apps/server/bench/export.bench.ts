// "Download my data" (#41): the memory a zip takes to write, at a small account, at 10,000
// messages, and at 10,000 messages with 1 GB of pictures (BENCH_PICTURES_MB), on SQLite and the
// folder store. The resident memory is sampled every 10 ms while the zip is written: if the
// zip is streamed, its growth stays about the same whatever the account holds. Prints a table.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { insertUser, mateRow } from '../test/harness';
import { jobsDatabase } from '../test/jobs-helpers';
import { newRoomRow } from '../src/chat/room-repository';
import { messageRow } from '../src/chat/message-repository';
import { createFolderStore } from '../src/media/folder-store';
import { buildDataZip } from '../src/privacy/data-export-service';

const PICTURES_MB = Number(process.env.BENCH_PICTURES_MB ?? 1024);
const PICTURE_MB = 4;
const mb = (bytes: number) => Math.round((bytes / 1_000_000) * 10) / 10;

async function account(messages: number, picturesMb: number) {
  const database = await jobsDatabase('sqlite');
  const { db } = database;
  const media = createFolderStore(database.dataDir);
  const userId = randomUUID();
  await insertUser(db, { id: userId, email: `${userId}@example.com`, nickname: 'Bench' });
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const mate = mateRow(userId, { name: 'Bench Mate', visibility: 'private' });
  await db.insertInto('mates').values(mate).execute();
  const perRoom = 100;
  const at = new Date().toISOString();
  const roomIds: string[] = [];
  for (let room = 0; room * perRoom < messages; room++) {
    const roomId = randomUUID();
    roomIds.push(roomId);
    await db
      .insertInto('rooms')
      .values(newRoomRow({ id: roomId, user_id: userId, mate_id: mate.id }))
      .execute();
    const rows = Array.from({ length: Math.min(perRoom, messages - room * perRoom) }, (_, index) =>
      messageRow(
        {
          role: index % 2 ? 'mate' : 'user',
          content: `A sentence of a long conversation, number ${index}. `.repeat(8),
          status: 'complete',
        },
        { id: randomUUID(), roomId, position: index + 1, at },
      ),
    );
    for (let start = 0; start < rows.length; start += 50)
      await db
        .insertInto('messages')
        .values(rows.slice(start, start + 50))
        .execute();
  }
  // Pictures as stored (random bytes: nothing to gain by compressing them, as with WebP).
  for (let picture = 0; picture * PICTURE_MB < picturesMb; picture++) {
    const file = `${randomBytes(18).toString('base64url')}.webp`;
    await media.put(`pictures/${file}`, randomBytes(PICTURE_MB * 1_000_000), 'image/webp');
    const roomId = roomIds[picture % roomIds.length]!;
    await db
      .insertInto('messages')
      .values({
        ...messageRow(
          {
            role: 'mate',
            content: '',
            status: 'complete',
            picture: { prompt: 'x', size: '768x1024' },
          },
          { id: randomUUID(), roomId, position: 10_000 + picture, at },
        ),
        image_file: file,
      })
      .execute();
  }
  return { database, media, user };
}

async function measure(name: string, messages: number, picturesMb: number) {
  const { database, media, user } = await account(messages, picturesMb);
  const file = path.join(database.dataDir, 'export.zip');
  global.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const start = performance.now();
  await buildDataZip({ db: database.db, dialect: 'sqlite', media }, user, file, {
    signal: new AbortController().signal,
    progress: () => {},
  });
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  const row = {
    account: name,
    messages,
    'pictures MB': picturesMb,
    'zip MB': mb(fs.statSync(file).size),
    seconds: Math.round(seconds * 10) / 10,
    'RSS before MB': mb(before),
    'RSS growth MB': mb(peak - before),
  };
  await database.close();
  fs.rmSync(database.dataDir, { recursive: true, force: true });
  return row;
}

const rows = [
  await measure('small', 100, 0),
  await measure('10,000 messages', 10_000, 0),
  await measure(`10,000 messages and ${PICTURES_MB} MB of pictures`, 10_000, PICTURES_MB),
];
console.log('\nDownload my data: writing the zip (SQLite, folder store)');
console.table(rows);
