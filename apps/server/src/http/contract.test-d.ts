import { Hono } from 'hono';
import { z } from 'zod';
import { GENDERS, type Mate, type MateSummary, type Paged, type Review } from '@mates/api-client';
import type { ApiEnv } from './context';
import { contract } from './contract';

// Type tests, compiled by `pnpm typecheck` (the server's tsconfig includes src): each line
// under `@ts-expect-error` must fail to compile, or the compiler reports the unused
// directive. They show that a route drifting from the api-client's contract breaks the build.
const mates = contract(new Hono<ApiEnv>(), '/mate');
const mate = {} as Mate;
const review = {} as Review;
const page = {} as Paged<MateSummary>;
const mateQuery = z.object({ mateId: z.string() });

// Fits: the schema parses to EndpointInput and the handler answers EndpointOutput.
mates.get('/mate/getMateDetail', mateQuery, () => mate);
mates.get('/mate/hotWords', () => [{ word: 'dragon', count: 3 }]);

// Input side.
// @ts-expect-error -- a schema missing a required field (`mateId`)
mates.get('/mate/getMateDetail', z.object({}), () => mate);
// @ts-expect-error -- a schema with a wrongly typed field (`mateId` is a string)
mates.get('/mate/getMateDetail', z.object({ mateId: z.number() }), () => mate);
// @ts-expect-error -- a schema missing an optional field (`sort`)
mates.get('/mate/search', z.object({ keyword: z.string(), tags: z.array(z.string()).optional(), gender: z.enum(['female', 'male', 'nonbinary']).optional(), page: z.number().optional(), pageSize: z.number().optional() }), () => page); // prettier-ignore
// @ts-expect-error -- a schema naming a field the contract does not have
mates.get('/mate/getMateDetail', z.object({ mateId: z.string(), extra: z.string() }), () => mate);
const recommendFields = {
  tags: z.array(z.string()).optional(),
  page: z.number().optional(),
  pageSize: z.number().optional(),
};
mates.get('/mate/recommend', z.object({ ...recommendFields, gender: z.enum(GENDERS).optional() }), () => page); // prettier-ignore
// @ts-expect-error -- a schema allowing a literal the contract does not (`gender: 'robot'`)
mates.get('/mate/recommend', z.object({ ...recommendFields, gender: z.enum(['female', 'robot']).optional() }), () => page); // prettier-ignore

const reviewFields = { mateId: z.string(), rating: z.number() };
const reviewPayload = z.object({ ...reviewFields, content: z.string().default('') });
// Fits: `content` is optional in the contract and defaulted by the schema.
mates.post('/mate/review', reviewPayload, () => review);
// @ts-expect-error -- a body schema that requires a field the client may leave out (`content`)
mates.post('/mate/review', z.object({ ...reviewFields, content: z.string() }), () => review);

// Output side.
mates.get(
  '/mate/getMateDetail',
  mateQuery,
  // @ts-expect-error -- an answer missing a field (`name`)
  (): Omit<Mate, 'name'> => mate,
);
mates.get(
  '/mate/getMateDetail',
  mateQuery,
  // @ts-expect-error -- an answer with a wrongly typed field (`nsfw` is a boolean)
  async () => ({ ...mate, nsfw: 'no' }),
);
// @ts-expect-error -- a call without input answering another call's output
mates.get('/mate/hotWords', () => [mate]);

// Paths and methods.
// @ts-expect-error -- `/mate/review` is a POST call
mates.get('/mate/review', reviewPayload, () => review);
// @ts-expect-error -- a path of another prefix than the routes are mounted at
mates.get('/room/deleteRoom', z.object({ roomId: z.string() }), () => null);
// @ts-expect-error -- a path the contract does not have
mates.get('/mate/unknown', mateQuery, () => mate);
// @ts-expect-error -- a call with input registered without its schema
mates.get('/mate/getMateDetail', () => mate);
