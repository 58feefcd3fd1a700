import { describe, expect, it } from 'vitest';
import {
  alreadyRegisteredMail,
  passwordRemovedMail,
  resetLinkMail,
  verificationMail,
} from '../accounts/account-mails';
import { accountDeletedMail, dataReadyMail } from '../privacy/privacy-mails';
import { escapeHtml, mailDate } from './compose';

const url = 'https://mates.example';
const expiresAt = '2026-08-01T06:03:00.000Z';

describe('the mails', () => {
  it('say in English, word for word, what they always said', () => {
    expect(verificationMail('ada@example.com', 'a/b', url, 'en')).toEqual({
      to: 'ada@example.com',
      subject: 'Confirm your e-mail address for Mates',
      text: 'Welcome to Mates!\n\nConfirm your e-mail address by opening this link:\nhttps://mates.example/api/user/verify/confirm?token=a%2Fb\n\nThe link works for 24 hours. If you did not sign up, ignore this mail.\n',
      html: '<p>Welcome to Mates!</p><p><a href="https://mates.example/api/user/verify/confirm?token=a%2Fb">Confirm your e-mail address</a></p><p>The link works for 24 hours. If you did not sign up, ignore this mail.</p>',
    });
    expect(alreadyRegisteredMail('ada@example.com', url, 'en').text).toBe(
      'Someone, maybe you, tried to create a Mates account with this e-mail address, which already has one.\n\nIf it was you, sign in at https://mates.example/ instead (with Google or Discord if you signed up that way).\nIf it was not you, ignore this mail: nothing was changed.\n',
    );
    expect(resetLinkMail('ada@example.com', 'tok', url, 'en').text).toBe(
      'Someone, we hope you, asked to reset the password of your Mates account.\n\nChoose a new password here:\nhttps://mates.example/#/reset-password?token=tok\n\nThe link works once, for one hour. If you did not ask, ignore this mail: your password stays as it is.\n',
    );
    expect(passwordRemovedMail('ada@example.com', 'discord', 'en')).toMatchObject({
      subject: 'You signed in to Mates with Discord',
      text: expect.stringContaining(
        'choose "Forgot your password?" on the sign-in page and set a new one.\n',
      ),
    });
    expect(dataReadyMail('ada@example.com', url, expiresAt, 'en')).toMatchObject({
      subject: 'Your Mates data is ready',
      text: expect.stringContaining(
        'Download it from your profile, signed in to this account:\nhttps://mates.example/#/profile\n\nIt can be downloaded until August 1, 2026 at 6:03 AM UTC; then it is removed.',
      ),
      html: expect.stringContaining(
        '<p><a href="https://mates.example/#/profile">Download it from your profile</a>, signed in to this account.</p>',
      ),
    });
    expect(accountDeletedMail('ada@example.com', 'en').subject).toBe(
      'Your Mates account was deleted',
    );
  });

  it('follow the language, region or not, and fall back to English, date included', () => {
    expect(accountDeletedMail('ada@example.com', 'es-MX').subject).toBe(
      'Tu cuenta de Mates se ha eliminado',
    );
    expect(passwordRemovedMail('ada@example.com', 'google', 'FR').subject).toBe(
      'Nouvelle connexion à Mates avec Google',
    );
    expect(resetLinkMail('ada@example.com', 'tok', url, 'ja').subject).toBe(
      'Reset your Mates password',
    );
    expect(dataReadyMail('ada@example.com', url, expiresAt, 'es').text).toContain(
      'Puedes descargarlos hasta el 1 de agosto de 2026 a las 6:03 UTC; después se eliminan.',
    );
    expect(dataReadyMail('ada@example.com', url, expiresAt, 'fr').html).toContain(
      '<p><a href="https://mates.example/#/profile">Télécharge-les depuis ton profil</a>, en te connectant à ce compte.</p>',
    );
    expect(mailDate('fr-CA', expiresAt)).toBe('1 août 2026 à 06:03 UTC');
    expect(mailDate('ja', expiresAt)).toBe('August 1, 2026 at 6:03 AM UTC');
  });

  it('escape what is filled into their HTML, and leave their text as it is', () => {
    const odd = 'https://mates.example/?a=1&b=<i>"x"</i>';
    const notice = alreadyRegisteredMail('ada@example.com', odd, 'fr');
    expect(notice.text).toContain(`connecte-toi plutôt sur ${odd}/`);
    expect(notice.html).toContain(`sur ${escapeHtml(odd)}/`);
    expect(notice.html).not.toContain('<i>');
    const reset = resetLinkMail('ada@example.com', 'tok', odd, 'es');
    expect(reset.html).toContain(`<a href="${escapeHtml(odd)}/#/reset-password?token=tok">`);
    expect(reset.html).not.toMatch(/<i>|"x"/);
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;',
    );
  });
});
