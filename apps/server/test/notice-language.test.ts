import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from './harness';

// Envelope messages people read (5007 notices, 4003, 4004) come in the `language` header's
// language; English callers get the routes' sentences word for word.
describe('notices in the caller’s language', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await app.close();
  });

  it('says a wrong password in French, Spanish and English', async () => {
    await signUp(app, 'amelie@example.com');
    const login = (language: string) =>
      app
        .client({ language })
        .user.login({ email: 'amelie@example.com', password: 'incorrect horse' });
    await expect(login('fr-FR')).rejects.toMatchObject({
      code: 5007,
      message: 'Adresse e-mail ou mot de passe incorrect.',
    });
    await expect(login('es')).rejects.toMatchObject({
      code: 5007,
      message: 'Correo electrónico o contraseña incorrectos.',
    });
    await expect(login('en')).rejects.toMatchObject({
      code: 5007,
      message: 'Wrong e-mail address or password.',
    });
    // A language the server does not speak gets English.
    await expect(login('ja')).rejects.toMatchObject({
      message: 'Wrong e-mail address or password.',
    });
  });

  it('says "not found" in French, and keeps a field’s bad input as the route wrote it', async () => {
    const { userInfo } = await signUp(app);
    const french = app.client({ token: userInfo.token, language: 'fr' });
    await expect(french.mate.getMateDetail({ mateId: 'no-such-mate' })).rejects.toMatchObject({
      code: 4004,
      message: 'Mate introuvable.',
    });
    await expect(
      french.user.changePassword({ oldPassword: 'not it at all', newPassword: 'new horse 1' }),
    ).rejects.toMatchObject({ code: 5007, message: 'Le mot de passe actuel n’est pas le bon.' });
    await expect(french.user.updateLange({ language: 'Français' })).rejects.toMatchObject({
      code: 4000,
      message: expect.stringContaining('language'),
    });
  });
});
