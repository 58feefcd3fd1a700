import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, lazyChild } from './logger';

/** A logger whose lines are kept, parsed, in `lines`. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger({ level: 'info', format: 'json' }, destination), lines };
}

describe('a child logger made when first used', () => {
  it('makes no child until a line is written, then one, with its fields, redacted', () => {
    const { log, lines } = capturedLogger();
    const child = vi.spyOn(log, 'child');
    const lazy = lazyChild(log, { reqId: 'r-1', userId: 'u-1' });
    expect(child).not.toHaveBeenCalled();
    lazy.info({ token: 'secret-token', n: 1 }, 'first');
    lazy.warn('second');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { reqId: 'r-1', userId: 'u-1', token: '[redacted]', n: 1, msg: 'first', level: 30 },
      { reqId: 'r-1', userId: 'u-1', msg: 'second', level: 40 },
    ]);
  });

  it('is a whole logger: its level, its own children and what it binds', () => {
    const { log, lines } = capturedLogger();
    const lazy = lazyChild(log, { reqId: 'r-2' });
    expect(lazy.isLevelEnabled('debug')).toBe(false);
    lazy.level = 'debug';
    expect(lazy.level).toBe('debug');
    lazy.debug('now written');
    expect(log.level).toBe('info');
    lazy.child({ job: 'j-1' }).error(new Error('broken'), 'failed');
    expect(lazy.bindings()).toEqual({ reqId: 'r-2' });
    expect(lines).toMatchObject([
      { reqId: 'r-2', msg: 'now written', level: 20 },
      { reqId: 'r-2', job: 'j-1', msg: 'failed', level: 50, err: { message: 'broken' } },
    ]);
  });
});
