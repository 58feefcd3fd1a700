import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Mail } from '../src/mail/mailer';
import {
  DIALECTS,
  createTestApp,
  linkIn,
  postgresAvailable,
  signUp,
  type memoryMailer,
  type TestApp,
} from './harness';
import { startGoogleDouble } from './oauth-doubles';

// Found from outside: the app speaks English, Spanish and French and the server's messages
// followed the person's language, but every mail it sent was in English.
const withPostgres = await postgresAvailable();
const GOOGLE_CLIENT_ID = 'mates-test.apps.googleusercontent.com';

/** What each mail says in each language: its subject and a sentence of its text. */
const expected = {
  es: {
    verification: [
      'Confirma tu dirección de correo para Mates',
      '¡Te damos la bienvenida a Mates!',
    ],
    alreadyRegistered: [
      'Alguien intentó registrarse en Mates con tu dirección',
      'Si no fuiste tú, ignora este correo: no se ha cambiado nada.',
    ],
    resetLink: [
      'Restablece tu contraseña de Mates',
      'El enlace funciona una sola vez, durante una hora.',
    ],
    passwordRemoved: [
      'Iniciaste sesión en Mates con Google',
      'Acabas de iniciar sesión en tu cuenta de Mates con Google.',
    ],
    dataReady: ['Tus datos de Mates están listos', 'Puedes descargarlos hasta el '],
    accountDeleted: [
      'Tu cuenta de Mates se ha eliminado',
      'Puedes volver a registrarte con esta dirección cuando quieras, como un miembro nuevo.',
    ],
  },
  fr: {
    verification: ['Confirme ton adresse e-mail pour Mates', 'Bienvenue sur Mates !'],
    alreadyRegistered: [
      'Quelqu’un a essayé de s’inscrire sur Mates avec ton adresse',
      'Si ce n’était pas toi, ignore cet e-mail : rien n’a été modifié.',
    ],
    resetLink: ['Réinitialise ton mot de passe Mates', 'Le lien ne sert qu’une fois'],
    passwordRemoved: [
      'Nouvelle connexion à Mates avec Google',
      'Tu viens de te connecter à ton compte Mates avec Google.',
    ],
    dataReady: ['Tes données Mates sont prêtes', 'Tu peux les télécharger jusqu’au '],
    accountDeleted: [
      'Ton compte Mates a été supprimé',
      'Tu peux te réinscrire avec cette adresse à tout moment, comme nouveau membre.',
    ],
  },
} as const;

/** How each language writes the date the download ends (a day, a month's name, a year, UTC). */
const untilDate = {
  es: /hasta el \d{1,2} de [a-z]+ de \d{4} a las \d{1,2}:\d{2} UTC;/,
  fr: /jusqu’au \d{1,2} [a-zéû]+ \d{4} à \d{2}:\d{2} UTC ;/,
} as const;

describe.each(DIALECTS)('mails in the person’s language on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  let google: Awaited<ReturnType<typeof startGoogleDouble>>;
  beforeAll(async () => {
    if (skip) return;
    google = await startGoogleDouble();
    app = await createTestApp(dialect, {
      env: { GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl },
    });
    await app.deps.jobs.start();
  });
  afterAll(async () => {
    if (skip) return;
    await Promise.all([app.close(), google.close()]);
  });

  const mailsTo = (email: string): Mail[] =>
    (app.mailer as ReturnType<typeof memoryMailer>).sent.filter((mail) => mail.to === email);
  /** The latest mail to `email` once there are `count` of them (some are sent after the answer). */
  const nthMail = (email: string, count: number) =>
    vi.waitFor(
      () => {
        const mails = mailsTo(email);
        if (mails.length < count) throw new Error(`${mails.length} mail(s) to ${email}`);
        return mails[count - 1]!;
      },
      { timeout: 20_000, interval: 50 },
    );
  const newAddress = () => `m${randomBytes(4).toString('hex')}@example.com`;
  /** A verified account whose stored language is `language`. */
  async function personSpeaking(language: string) {
    const person = await signUp(app, newAddress());
    await person.client.user.updateLange({ language });
    return person;
  }
  const says = (mail: Mail, [subject, sentence]: readonly [string, string]) => {
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain(sentence);
  };

  describe.each(['es', 'fr'] as const)('in %s', (language) => {
    it.skipIf(skip)(
      'mails the verification link in the language the sign-up was made in',
      async () => {
        const email = newAddress();
        await app.client({ language }).user.register({ email, password: 'correct horse' });
        const mail = await nthMail(email, 1);
        says(mail, expected[language].verification);
        // The link still works.
        expect(linkIn(mail)).toMatch(/^http:\/\/mates\.test\/api\/user\/verify\/confirm\?token=/);
        expect(mail.html).toContain('href="http://mates.test/api/user/verify/confirm?token=');
      },
    );

    it.skipIf(skip)(
      'tells the owner of a registered address in the owner’s language, not the caller’s',
      async () => {
        const owner = await personSpeaking(language);
        const email = owner.userInfo.email;
        const other = language === 'es' ? 'fr' : 'es';
        await app.client({ language: other }).user.register({ email, password: 'other horse!' });
        says(await nthMail(email, 2), expected[language].alreadyRegistered);
      },
    );

    it.skipIf(skip)('mails a reset link in the account’s language', async () => {
      const person = await personSpeaking(language);
      // Asked for from an English browser: the mail goes to the account, in its language.
      await app.client().user.forgotPassword({ email: person.userInfo.email });
      const mail = await nthMail(person.userInfo.email, 2);
      says(mail, expected[language].resetLink);
      expect(mail.text).toMatch(/#\/reset-password\?token=[\w-]+/);
    });

    it.skipIf(skip)(
      'says a provider’s sign-in took the password away, in the account’s language',
      async () => {
        const person = await personSpeaking(language);
        const credential = await google.sign(
          {
            sub: `g-${randomBytes(4).toString('hex')}`,
            email: person.userInfo.email,
            email_verified: true,
          },
          { audience: GOOGLE_CLIENT_ID },
        );
        await app.client().user.loginGG({ credential });
        says(await nthMail(person.userInfo.email, 2), expected[language].passwordRemoved);
      },
    );

    it.skipIf(skip)(
      'says the data is ready, and until when, in the account’s language',
      async () => {
        const person = await personSpeaking(language);
        await person.client.user.exportData();
        const mail = await nthMail(person.userInfo.email, 2);
        says(mail, expected[language].dataReady);
        expect(mail.text).toMatch(untilDate[language]);
        expect(mail.text).toContain('http://mates.test/#/profile');
        expect(mail.html).toContain('<a href="http://mates.test/#/profile">');
      },
    );

    it.skipIf(skip)('says the account is deleted in its language', async () => {
      const person = await personSpeaking(language);
      await person.client.user.deleteAccount({ password: 'correct horse', publicMates: 'keep' });
      says(await nthMail(person.userInfo.email, 2), expected[language].accountDeleted);
    });
  });
});
