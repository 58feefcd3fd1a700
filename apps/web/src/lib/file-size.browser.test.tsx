import { describe, expect, it } from 'vitest';
import { fileSize } from './file-size';

describe('a file size for people', () => {
  it('is said in the largest unit it has one of, with one decimal at most', () => {
    expect(fileSize(12_376, 'en')).toBe('12.4 kB');
    expect(fileSize(48_200_000, 'en')).toBe('48.2 MB');
    expect(fileSize(2_345_000_000, 'en')).toBe('2.3 GB');
    expect(fileSize(999_960, 'en')).toBe('1 MB');
    expect(fileSize(1000, 'en')).toBe('1 kB');
    expect(fileSize(0, 'en')).toBe('0 byte');
  });

  it('is written in the reader’s language', () => {
    expect(fileSize(12_376, 'fr').replace(/\s/g, ' ')).toBe('12,4 ko');
    expect(fileSize(48_200_000, 'es').replace(/\s/g, ' ')).toBe('48,2 MB');
  });
});
