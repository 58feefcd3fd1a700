import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, SessionExpiredError } from '@mates/api-client';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { createI18n, LANGUAGES, loadScreenTexts, switchLanguage } from './i18n';
import { errorText, messageText } from './error-text';
import { tagName, translateTagGroups } from './tag-names';

/** Every text of a language, by its dotted key. */
const texts = (language: object, prefix = ''): [string, string][] =>
  Object.entries(language).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string'
      ? [[prefix + key, value]]
      : texts(value as object, `${prefix}${key}.`),
  );
const keys = (language: object) => texts(language).map(([key]) => key);

async function speaking(language: string) {
  await loadScreenTexts();
  const i18n = createI18n();
  await switchLanguage(i18n, language);
  return i18n.t.bind(i18n);
}

describe('the app’s languages', () => {
  it('ship only the first screen’s English up front, the rest with the next screen', async () => {
    const first = createI18n();
    expect(first.exists('discover.title')).toBe(true);
    expect(first.exists('chat.conversation')).toBe(false);
    await loadScreenTexts();
    expect(first.exists('chat.conversation')).toBe(true);
    expect(createI18n().exists('chat.conversation')).toBe(true);
  });

  it('are English, Spanish and French, each with every key of English and no empty text', () => {
    expect(Object.keys(LANGUAGES)).toEqual(['en', 'es', 'fr']);
    for (const language of [es, fr]) {
      expect(keys(language).sort()).toEqual(keys(en).sort());
      expect(texts(language).filter(([, text]) => text.trim() === '')).toEqual([]);
    }
  });

  it('call a mate a mate everywhere, as the discover page does, never by a second word', () => {
    // A Spanish reader met "Buscar mates" on the discover page and "Buscar compañeros" when
    // inviting one of the same mates into a group.
    const otherWords = { es: /compañer[oa]s?/i, fr: /compagnons?|compagnes?/i };
    for (const [language, word] of [
      [es, otherWords.es],
      [fr, otherWords.fr],
    ] as const)
      expect(texts(language).filter(([, text]) => word.test(text))).toEqual([]);
  });

  it('name the tags the app knows, and keep the server’s name for any other', async () => {
    const t = await speaking('fr');
    expect(tagName(t, 'slice-of-life', 'Slice of life')).toBe('Tranche de vie');
    expect(tagName(t, 'steampunk', 'Steampunk')).toBe('Steampunk');
    const [group] = translateTagGroups(
      [
        {
          key: 'genre',
          label: 'Genre',
          tags: [
            { key: 'sci-fi', label: 'Sci-fi', group: 'genre' },
            { key: 'noir', label: 'Noir', group: 'genre' },
          ],
        },
      ],
      await speaking('es'),
    );
    expect(group!.tags.map((tag) => tag.label)).toEqual(['Ciencia ficción', 'Noir']);
    expect(translateTagGroups([{ key: 'mood', label: 'Mood', tags: [] }], t)[0]!.label).toBe(
      'Ambiance',
    );
  });

  it('say the client’s own failures in SPEC’s words in English, translated elsewhere', async () => {
    const call = { method: 'GET', path: '/mate/recommend', status: 200 } as const;
    const failures = [
      new ApiError('server error', { ...call, code: 4000 }),
      new ApiError('something error', { ...call, code: 5007 }),
      new SessionExpiredError(call),
    ];
    const english = await speaking('en');
    expect(failures.map((error) => errorText(error, english))).toEqual([
      'server error',
      'something error',
      'login expired',
    ]);
    const french = await speaking('fr');
    expect(failures.map((error) => errorText(error, french))).toEqual([
      'Le serveur n’a pas pu répondre à la demande. Réessaie dans un instant.',
      'Un problème est survenu',
      'Ta session a expiré. Reconnecte-toi.',
    ]);
    expect(
      errorText(new NetworkError({ ...call, cause: new TypeError('Failed to fetch') }), french),
    ).toBe('Le serveur est injoignable. Vérifie ta connexion et réessaie.');
    // What the server wrote (in the language header's language) is shown as it came.
    const server = new ApiError('El modelo está ocupado.', { ...call, code: 5007 });
    expect(errorText(server, french)).toBe('El modelo está ocupado.');
    expect(messageText('Ce mate n’est plus disponible.', english)).toBe(
      'Ce mate n’est plus disponible.',
    );
  });
});
