import { describe, expect, it } from 'vitest';
import { createMemoryFixture } from '@mates/api-client/msw';
import { placeMemory } from './memory-cache';

const summary = createMemoryFixture({ memoryId: 'summary', kind: 'summary', about: 'story' });
const pinned = createMemoryFixture({ memoryId: 'pinned', pinned: true });
const newer = createMemoryFixture({ memoryId: 'newer', createdAt: '2026-11-20T10:00:00.000Z' });
const older = createMemoryFixture({ memoryId: 'older', createdAt: '2026-11-10T10:00:00.000Z' });
const list = [summary, pinned, newer, older];
const ids = (memories: { memoryId: string }[]) => memories.map((memory) => memory.memoryId);

// The panel puts a saved memory where the server would list it, without reading the list again.
describe('placeMemory', () => {
  it('keeps a memory whose words changed in its place', () => {
    const edited = { ...newer, content: 'Her sister is called Ana María.' };
    expect(placeMemory(list, edited)).toEqual([summary, pinned, edited, older]);
  });

  it('puts a memory just pinned last among the pinned ones', () => {
    expect(ids(placeMemory(list, { ...older, pinned: true }))).toEqual([
      'summary',
      'pinned',
      'older',
      'newer',
    ]);
  });

  it('puts a memory unpinned among the others by when it was written, newest first', () => {
    const middle = { ...pinned, pinned: false, createdAt: '2026-11-15T10:00:00.000Z' };
    expect(ids(placeMemory(list, middle))).toEqual(['summary', 'newer', 'pinned', 'older']);
  });

  it('puts a new fact first among the others, and a new summary first of all', () => {
    const added = createMemoryFixture({ memoryId: 'added', createdAt: '2026-11-29T00:00:00.000Z' });
    expect(ids(placeMemory(list, added))).toEqual(['summary', 'pinned', 'added', 'newer', 'older']);
    const story = { ...summary, memoryId: 'summary-2' };
    expect(ids(placeMemory([pinned, newer], story))).toEqual(['summary-2', 'pinned', 'newer']);
  });
});
