import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { inLanguage, textsFor } from './texts';
import { missing, refused } from '../domain/errors';
import type { SpeechFailure } from '../voice/speech-engine';

const keys = (texts: object, prefix = ''): string[] =>
  Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'string' ? [prefix + key] : keys(value as object, `${prefix}${key}.`),
  );

// Said alike in every language: a package's own name, and "chats", the product's word for them.
const SAID_ALIKE = ['ledger.reasons.package', 'ledger.parts.chats_one', 'ledger.parts.chats_other'];

// The server speaks the languages the web app ships: English, Spanish and French.
describe('the server’s sentences', () => {
  it('exist in every language, none left in English', () => {
    for (const texts of [es, fr]) {
      expect(keys(texts)).toEqual(keys(en));
      const t = textsFor(texts === es ? 'es' : 'fr');
      for (const key of keys(en).filter((key) => !SAID_ALIKE.includes(key)))
        expect(t(key)).not.toBe(textsFor('en')(key));
    }
  });

  it('follow the language header, region or not, and fall back to English', () => {
    expect(textsFor('fr')('room.readOnly')).toBe(
      'Ce mate n’est plus disponible. Tu peux relire ce chat, mais pas le poursuivre.',
    );
    expect(textsFor('fr-CA')('reply.busy')).toBe('Le modèle est occupé. Réessaie dans un instant.');
    expect(textsFor('es-MX')('reply.busy')).toBe(
      'El modelo está ocupado. Inténtalo de nuevo en un momento.',
    );
    expect(textsFor('ja')('reply.busy')).toBe('The model is busy. Please try again in a moment.');
  });

  it('say a refusal by its key in the caller’s language, and keep any other message as it is', () => {
    expect(missing('notices.notFound.mate').sentence('fr')).toBe('Mate introuvable.');
    expect(refused('notices.pictures.notSetUp').sentence('es')).toBe(
      'Las imágenes no están configuradas en este servidor.',
    );
    expect(missing('notices.notFound.mate').message).toBe('Mate not found.');
    // No English sentence is looked up by its words any more: only a field's known sentence.
    expect(inLanguage('fr', 'Mate not found.')).toBe('Mate not found.');
    expect(inLanguage('fr', 'image: must be at most 8 MB')).toBe('image: must be at most 8 MB');
  });

  it('translate what a form is told about a field, the field named as people read it', () => {
    // Found from outside: a sign-up in Spanish was told "email: must be an e-mail address".
    expect(inLanguage('es', 'email: must be an e-mail address')).toBe(
      'correo: debe ser una dirección de correo',
    );
    expect(inLanguage('fr', 'password: must be at least 8 characters')).toBe(
      'mot de passe : doit compter au moins 8 caractères',
    );
    expect(inLanguage('es', 'nickname: must be at most 40 characters')).toBe(
      'nombre: debe tener como máximo 40 caracteres',
    );
    // A field without a name of its own keeps its key; its words are still translated.
    expect(inLanguage('fr', 'alternate_greetings.2: is required')).toBe(
      'alternate_greetings.2 : est obligatoire',
    );
    // English, or words the server does not know, stay as they are.
    expect(inLanguage('en', 'email: must be an e-mail address')).toBe(
      'email: must be an e-mail address',
    );
    expect(inLanguage('es', 'tags: unknown tag "x"')).toBe('tags: unknown tag "x"');
  });

  it('list only sentences that a route still sends, word for word', () => {
    const source = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return entry.name === 'i18n' ? [] : source(path);
        return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
          ? [readFileSync(path, 'utf8')]
          : [];
      });
    const code = source(join(import.meta.dirname, '..')).join('\n');
    const notices = keys(en.notices).map((key) => ({
      key,
      text: key
        .split('.')
        .reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], en.notices) as string,
    }));
    // A service's refusal is thrown by its sentence key (`refused('notices.pictures.notQueued')`);
    // the provider's and engine's sentences as one literal each, or by their key
    // (`en.notices.voice.busy`); a sentence built from a template names its variants here in full.
    // An engine's failure is sent by a template key, `notices.voice.${failure}` and
    // `notices.transcription.${failure}`: its variants, one per failure, named here in full.
    const failures = Object.keys({
      unreachable: true,
      unauthorized: true,
      busy: true,
      rejected: true,
      failed: true,
      timeout: true,
      cut: true,
      malformed: true,
      cancelled: true,
    } satisfies Record<SpeechFailure, true>);
    const templated = new Set(
      ['voice', 'transcription']
        .filter((group) => code.includes(`\`notices.${group}.\${`))
        .flatMap((group) => failures.map((failure) => `${group}.${failure}`)),
    );
    const sent = ({ key, text }: { key: string; text: string }) =>
      templated.has(key) ||
      code.includes(text) ||
      code.includes(`'notices.${key}'`) ||
      new RegExp(`\\ben\\.notices\\.${key.replace(/\./g, '\\.')}\\b`).test(code) ||
      /^Your (Google|Discord) account has no verified e-mail address\.$/.test(text);
    expect(notices.filter((notice) => !sent(notice)).map(({ text }) => text)).toEqual([]);
  });
});
