import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestApp, postgresAvailable, signUp, seededMate } from './harness';
import { startAutomatic1111Double } from './image-doubles';
import { NOT_QUEUED } from '../src/images/picture-job-service';

// Issue #15: `/aigc/models` from the configured picture engine, and one clear 5007 for every
// picture call when no engine is set up.
const withPostgres = await postgresAvailable();
const NOT_SET_UP = 'Pictures are not set up on this server.';

describe.each(DIALECTS)('picture models on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let double: Awaited<ReturnType<typeof startAutomatic1111Double>>;
  beforeAll(async () => {
    double = await startAutomatic1111Double();
  });
  afterAll(() => double.close());

  const kaiRoom = async (app: Awaited<ReturnType<typeof createTestApp>>) => {
    const { client } = await signUp(app);
    const kai = await seededMate(app.db, 'Kai Tanaka');
    const room = await client.room.createRoom({ mateId: kai.id });
    return { client, roomId: room.roomId };
  };

  it.skipIf(skip)(
    'answers 5007 "not set up" to every picture call without IMAGE_PROVIDER',
    async () => {
      const app = await createTestApp(dialect);
      try {
        expect(
          await app
            .client()
            .aigc.models()
            .catch((error: unknown) => error),
        ).toMatchObject({
          code: 5007,
          message: NOT_SET_UP,
        });
        const { client, roomId } = await kaiRoom(app);
        expect(
          await client.room
            .createImage({ roomId, prompt: 'Kai at the night market' })
            .catch((error: unknown) => error),
        ).toMatchObject({ code: 5007, message: NOT_SET_UP });
        expect(
          await client.room.checkJobStatus({ jobId: 'job-1' }).catch((error: unknown) => error),
        ).toMatchObject({ code: 5007, message: NOT_SET_UP });
        expect(
          await client.room.pictures({ roomId }).catch((error: unknown) => error),
        ).toMatchObject({ code: 5007, message: NOT_SET_UP });
        expect(
          await client.room
            .sharePicture({ messageId: 'message-1', shared: true })
            .catch((error: unknown) => error),
        ).toMatchObject({ code: 5007, message: NOT_SET_UP });
        // Calls that need a session still ask for one first.
        expect(
          await app
            .client()
            .room.createImage({ roomId, prompt: 'Kai' })
            .catch((error: unknown) => error),
        ).toMatchObject({ code: 5002 });
      } finally {
        await app.close();
      }
    },
  );

  it.skipIf(skip)(
    "lists the engine's checkpoints with IMAGE_COST, sizes and the default, then the chat model",
    async () => {
      const app = await createTestApp(dialect, {
        env: {
          IMAGE_PROVIDER: 'automatic1111',
          IMAGE_BASE_URL: double.url,
          IMAGE_MODEL: 'realisticVision_v51.safetensors [15012c538f]',
          IMAGE_COST: '7',
        },
      });
      try {
        const sizes = ['512x512', '768x1024', '1024x768', '1024x1024'];
        expect(await app.client().aigc.models()).toEqual([
          {
            modelId: 'dreamshaper_8.safetensors [879db523c3]',
            name: 'dreamshaper_8',
            kind: 'image',
            cost: 7,
            isDefault: false,
            engine: 'automatic1111',
            sizes,
          },
          {
            modelId: 'realisticVision_v51.safetensors [15012c538f]',
            name: 'realisticVision_v51',
            kind: 'image',
            cost: 7,
            isDefault: true,
            engine: 'automatic1111',
            sizes,
          },
          {
            modelId: app.deps.config.llm.model,
            name: 'Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M',
            kind: 'chat',
            cost: 0,
            isDefault: true,
            engine: 'embedded',
          },
        ]);
        // With an engine, picture-routes own createImage; this app's job queue is not started,
        // so the job cannot be queued: the coins come back and the message says why.
        const { client, roomId } = await kaiRoom(app);
        const coins = (await client.user.benefits()).goldCoins;
        expect(
          await client.room
            .createImage({ roomId, prompt: 'Kai at the night market' })
            .catch((error: unknown) => error),
        ).toMatchObject({ code: 5007, message: NOT_QUEUED });
        expect((await client.user.benefits()).goldCoins).toBe(coins);
        const info = await client.room.roomInfo({ roomId });
        expect(info.messages.at(-1)).toMatchObject({
          content: '',
          status: 'error',
          // The job id was written with the message; no such job was ever stored.
          image: { state: 'failed', jobId: expect.any(String), url: null, error: NOT_QUEUED },
        });
        const { jobId } = info.messages.at(-1)!.image!;
        expect(await app.deps.jobs.status(jobId)).toBeNull();
      } finally {
        await app.close();
      }
    },
  );

  it.skipIf(skip)(
    'falls back to IMAGE_MODEL when the engine does not answer, and says so without one',
    async () => {
      await double.close();
      const down = double.url;
      double = await startAutomatic1111Double();
      const withModel = await createTestApp(dialect, {
        env: {
          IMAGE_PROVIDER: 'automatic1111',
          IMAGE_BASE_URL: down,
          IMAGE_MODEL: 'dreamshaper_8',
        },
      });
      const without = await createTestApp(dialect, {
        env: { IMAGE_PROVIDER: 'automatic1111', IMAGE_BASE_URL: down },
      });
      try {
        const models = await withModel.client().aigc.models();
        expect(models.filter((model) => model.kind === 'image')).toMatchObject([
          { modelId: 'dreamshaper_8', isDefault: true, cost: 5 },
        ]);
        expect(withModel.logs.some((line) => line.includes('cannot be reached'))).toBe(true);
        expect(
          await without
            .client()
            .aigc.models()
            .catch((error: unknown) => error),
        ).toMatchObject({
          code: 5007,
          message: 'Pictures cannot be made right now: the picture engine does not answer.',
        });
      } finally {
        await withModel.close();
        await without.close();
      }
    },
  );
});
