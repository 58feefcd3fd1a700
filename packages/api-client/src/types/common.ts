/** An ISO 8601 timestamp in UTC, e.g. `2026-11-22T11:22:33.000Z`. */
export type IsoDateTime = string;

/** A BCP 47 language tag such as `en` or `es`; the default is `en`. */
export type LanguageCode = string;

/** Every gender a mate may have, in display order: the server's filter and the app's chips are built from it. */
export const GENDERS = ['female', 'male', 'nonbinary'] as const;

/** Gender of a mate, and the gender filter a user picks on the discover page. */
export type Gender = (typeof GENDERS)[number];

/** Paging input: pages count from 1; `pageSize` is capped by the server (50). */
export interface PageQuery {
  /** 1-based page number; default 1. */
  page?: number;
  /** Items per page; default 20, at most 50. */
  pageSize?: number;
}

/** One page of a list. */
export interface Paged<T> {
  /** The items of this page. */
  list: T[];
  /** The 1-based number of this page. */
  page: number;
  /** The page size the server used. */
  pageSize: number;
  /** How many items the whole list holds. */
  total: number;
  /** Whether a later page exists. */
  hasMore: boolean;
}

/** A result that carries nothing but success. */
export type Empty = null;
