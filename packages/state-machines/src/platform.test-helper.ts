import { vi } from 'vitest';
import type { Platform } from './platform';

/** A platform whose every effect is a spy; the current path is `/detail?mateId=m1`. */
export function createFakePlatform(currentPath = '/detail?mateId=m1') {
  return {
    reload: vi.fn(),
    navigate: vi.fn(),
    redirect: vi.fn(),
    currentPath: vi.fn(() => currentPath),
    notify: vi.fn(),
    logError: vi.fn(),
  } satisfies Platform;
}

/** Resolves after pending promise callbacks have run. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
