import type { TFunction } from 'i18next';
import type { TagGroup } from '@mates/api-client';
import { enFirstScreen as en } from './en-first-screen';

type TagKey = keyof typeof en.tags;
type TagGroupKey = keyof typeof en.tagGroups;

const isTagKey = (key: string): key is TagKey => Object.hasOwn(en.tags, key);
const isGroupKey = (key: string): key is TagGroupKey => Object.hasOwn(en.tagGroups, key);

/** A tag's name in the current language: the app's words for a tag it knows, else `fallback`. */
export function tagName(t: TFunction, key: string, fallback: string): string {
  return isTagKey(key) ? t(`tags.${key}`) : fallback;
}

/** The server's tag groups with every group and tag the app knows named in `t`'s language. */
export function translateTagGroups(groups: TagGroup[], t: TFunction): TagGroup[] {
  return groups.map((group) => ({
    ...group,
    label: isGroupKey(group.key) ? t(`tagGroups.${group.key}`) : group.label,
    tags: group.tags.map((tag) => ({ ...tag, label: tagName(t, tag.key, tag.label) })),
  }));
}
