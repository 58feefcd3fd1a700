import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { es } from '../i18n/es';
import { fr } from '../i18n/fr';
import { pictureErrorIn } from './picture-messages';

describe("a failed picture's sentence", () => {
  it('is said in the reader’s language, found by the English stored', () => {
    expect(pictureErrorIn('es', en.pictures.failures.busy)).toBe(es.pictures.failures.busy);
    expect(pictureErrorIn('fr-CA', en.notices.pictures.notQueued)).toBe(
      fr.notices.pictures.notQueued,
    );
    expect(pictureErrorIn('en', en.notices.server.full)).toBe(en.notices.server.full);
    expect(pictureErrorIn('es', null)).toBeNull();
  });

  it('never repeats what is no sentence of ours: the job queue’s, or a fault’s', () => {
    expect(pictureErrorIn('fr', 'The job ran longer than 300000 ms.')).toBe(
      fr.pictures.failures.timeout,
    );
    expect(pictureErrorIn('es', 'The job was interrupted twice by a server stop.')).toBe(
      es.pictures.failures.failed,
    );
    expect(pictureErrorIn('en', 'SQLITE_IOERR: disk I/O error at /var/lib/mates')).toBe(
      en.pictures.failures.failed,
    );
  });
});
