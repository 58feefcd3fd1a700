import { href, routeTo, type RoutePath } from './paths';

// Type tests, compiled by `pnpm typecheck` (the web app's tsconfig includes src): each line
// under `@ts-expect-error` must fail to compile, or the compiler reports the unused directive.
// They show that a link to a path outside the route table breaks the build.

// Fits: every path of the route table, with or without a query.
href('/');
href('/detail', { mateId: 'm1' });
const paths: RoutePath[] = ['/chat-detail', '/reset-password', '/creator'];

// @ts-expect-error -- a mistyped path (the route is `/favorite`)
href('/favorites');
// @ts-expect-error -- a path with its query written into it: the query is the second argument
href('/detail?mateId=m1');
// @ts-expect-error -- a hash link is what href builds, not what it takes
href('#/profile');
// @ts-expect-error -- any string will not do: a path must come from the route table
href(String(paths[0]));
// @ts-expect-error -- a query's values are strings
href('/detail', { mateId: 1 });

// The router's own paths (for `navigate`) are held to the same table.
routeTo('/chat-detail', { roomId: 'r1' });
// @ts-expect-error -- a mistyped path (the route is `/chat-detail`)
routeTo('/chat', { roomId: 'r1' });
