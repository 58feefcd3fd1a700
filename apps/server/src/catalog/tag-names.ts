import { TAG_GROUPS } from '../seed/tags';
import { searchWords } from './search-words';

/**
 * The tags' names in the app's other languages, as the web app shows them
 * (apps/web/src/i18n/es.ts and fr.ts, `tags`): a search in those words finds the tag's mates.
 */
const TRANSLATED: Record<string, { es: string; fr: string }> = {
  fantasy: { es: 'Fantasía', fr: 'Fantasy' },
  'sci-fi': { es: 'Ciencia ficción', fr: 'Science-fiction' },
  romance: { es: 'Romance', fr: 'Romance' },
  mystery: { es: 'Misterio', fr: 'Mystère' },
  horror: { es: 'Terror', fr: 'Horreur' },
  adventure: { es: 'Aventura', fr: 'Aventure' },
  'slice-of-life': { es: 'Vida cotidiana', fr: 'Tranche de vie' },
  historical: { es: 'Histórico', fr: 'Historique' },
  comedy: { es: 'Comedia', fr: 'Comédie' },
  drama: { es: 'Drama', fr: 'Drame' },
  supernatural: { es: 'Sobrenatural', fr: 'Surnaturel' },
  friend: { es: 'Amigo', fr: 'Ami' },
  mentor: { es: 'Mentor', fr: 'Mentor' },
  rival: { es: 'Rival', fr: 'Rival' },
  partner: { es: 'Pareja', fr: 'Partenaire' },
  villain: { es: 'Villano', fr: 'Méchant' },
  guide: { es: 'Guía', fr: 'Guide' },
  modern: { es: 'Actualidad', fr: 'Époque actuelle' },
  medieval: { es: 'Medieval', fr: 'Médiéval' },
  space: { es: 'Espacio', fr: 'Espace' },
  city: { es: 'Ciudad', fr: 'Ville' },
  academy: { es: 'Escuela y academia', fr: 'École et académie' },
  sea: { es: 'Mar', fr: 'Mer' },
  wilderness: { es: 'Naturaleza salvaje', fr: 'Nature sauvage' },
  cyberpunk: { es: 'Cyberpunk', fr: 'Cyberpunk' },
  'post-apocalyptic': { es: 'Postapocalíptico', fr: 'Post-apocalyptique' },
  wholesome: { es: 'Entrañable', fr: 'Bienveillant' },
  flirty: { es: 'Coqueto', fr: 'Séducteur' },
  dark: { es: 'Oscuro', fr: 'Sombre' },
  cozy: { es: 'Acogedor', fr: 'Douillet' },
  witty: { es: 'Ingenioso', fr: 'Plein d’esprit' },
  mysterious: { es: 'Misterioso', fr: 'Mystérieux' },
};

// Words shorter than this ("de", "y", "et") name no tag, and name none when typed.
const SHORTEST = 3;

// Each tag's key as search words ("sci-fi": ["sci", "fi"]), with the folded words of its names
// in every language (English's label included: "School & academy" names `academy`).
const TAGS = TAG_GROUPS.flatMap((group) => group.tags).map(([key, label]) => ({
  key: searchWords(key),
  names: [
    ...new Set(
      [label, TRANSLATED[key]?.es ?? '', TRANSLATED[key]?.fr ?? '']
        .flatMap((name) => searchWords(name))
        .filter((word) => word.length >= SHORTEST),
    ),
  ],
}));

/**
 * The tags a search word names, each as its key's words: those with a name in one of the app's
 * languages that has a word beginning with `word` (search is "as you type"), so "fantasía",
 * "comed" and "science" name fantasy, comedy and sci-fi.
 */
export function tagsNamedBy(word: string): string[][] {
  if (word.length < SHORTEST) return [];
  return TAGS.filter((tag) => tag.names.some((name) => name.startsWith(word))).map(
    (tag) => tag.key,
  );
}
