/** The most mates one user may keep (deleted ones do not count). */
export const MAX_MATES_PER_USER = 200;
