import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StorageUnavailable } from '../media/media-store';
import { isOutOfSpace } from './out-of-space';

/** The error a write to a full disk gets: `/dev/full` answers every write with ENOSPC. */
function fullDiskError(): Error {
  try {
    fs.writeFileSync('/dev/full', 'a portrait');
  } catch (error) {
    return error as Error;
  }
  throw new Error('/dev/full took the write');
}

describe.skipIf(!fs.existsSync('/dev/full'))('a full disk', () => {
  it('is recognised from the file system, also inside a store’s error', () => {
    const error = fullDiskError();
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(isOutOfSpace(error)).toBe(true);
    // The folder store wraps what the file system said.
    expect(isOutOfSpace(new StorageUnavailable('the media folder: put', { cause: error }))).toBe(
      true,
    );
  });

  it('is not any other fault', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isOutOfSpace(refused)).toBe(false);
    expect(isOutOfSpace(new StorageUnavailable('the bucket', { cause: refused }))).toBe(false);
    expect(isOutOfSpace(new Error('plain'))).toBe(false);
    expect(isOutOfSpace(null)).toBe(false);
  });
});
