import { Hono } from 'hono';
import type { Tag, TagGroup } from '@mates/api-client';
import { contract } from '../http/contract';
import type { ApiEnv, Deps } from '../http/context';

/** `/extra/tags` and `/extra/tagsMap`, in display order. */
export function tagRoutes(deps: Deps): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();
  const load = async () => {
    const [groups, tags] = await Promise.all([
      db.selectFrom('tag_groups').selectAll().orderBy('sort').execute(),
      db.selectFrom('tags').selectAll().orderBy('sort').execute(),
    ]);
    return groups.map((group): TagGroup => ({
      key: group.key,
      label: group.label,
      tags: tags
        .filter((tag) => tag.group_key === group.key)
        .map((tag): Tag => ({ key: tag.key, label: tag.label, group: group.key })),
    }));
  };
  const api = contract(routes, '/extra');
  api.get('/extra/tags', async () => (await load()).flatMap((group) => group.tags));
  api.get('/extra/tagsMap', load);
  return routes;
}
