import type { Mail } from '../mail/mailer';
import type { ExternalProvider } from './user-repository';

/** The mail whose link verifies `email` (its link works for 24 hours). */
export function verificationMail(email: string, linkToken: string, publicUrl: string): Mail {
  const link = `${publicUrl}/api/user/verify/confirm?token=${encodeURIComponent(linkToken)}`;
  return {
    to: email,
    subject: 'Confirm your e-mail address for Mates',
    text: `Welcome to Mates!\n\nConfirm your e-mail address by opening this link:\n${link}\n\nThe link works for 24 hours. If you did not sign up, ignore this mail.\n`,
    html: `<p>Welcome to Mates!</p><p><a href="${link}">Confirm your e-mail address</a></p><p>The link works for 24 hours. If you did not sign up, ignore this mail.</p>`,
  };
}

/** Tells the owner of a verified address that someone tried to register it, and nothing more. */
export function alreadyRegisteredMail(email: string, publicUrl: string): Mail {
  const text =
    'Someone, maybe you, tried to create a Mates account with this e-mail address, which already has one.\n\n' +
    `If it was you, sign in at ${publicUrl}/ instead (with Google or Discord if you signed up that way).\n` +
    'If it was not you, ignore this mail: nothing was changed.\n';
  return {
    to: email,
    subject: 'Someone tried to sign up to Mates with your address',
    text,
    html: text
      .trim()
      .split('\n\n')
      .map((paragraph) => `<p>${paragraph.replace('\n', '<br>')}</p>`)
      .join(''),
  };
}

/** The mail with a link that sets a new password (it works once, for one hour). */
export function resetLinkMail(email: string, token: string, publicUrl: string): Mail {
  const link = `${publicUrl}/#/reset-password?token=${encodeURIComponent(token)}`;
  return {
    to: email,
    subject: 'Reset your Mates password',
    text: `Someone, we hope you, asked to reset the password of your Mates account.\n\nChoose a new password here:\n${link}\n\nThe link works once, for one hour. If you did not ask, ignore this mail: your password stays as it is.\n`,
    html: `<p>Someone, we hope you, asked to reset the password of your Mates account.</p><p><a href="${link}">Choose a new password</a></p><p>The link works once, for one hour. If you did not ask, ignore this mail: your password stays as it is.</p>`,
  };
}

/**
 * Tells the owner of an account that signing in with a provider took its password away and
 * signed every other device out (see `linkOrCreateUser`).
 */
export function passwordRemovedMail(email: string, provider: ExternalProvider): Mail {
  const name = provider === 'google' ? 'Google' : 'Discord';
  const text = [
    `You just signed in to your Mates account with ${name}.`,
    `To keep the account yours, its password was removed and every other device was signed out: whoever chose that password may not have been you. Your mates, chats and coins are all still there.`,
    `To sign in with a password again, choose "Forgot your password?" on the sign-in page and set a new one.`,
  ];
  return {
    to: email,
    subject: `You signed in to Mates with ${name}`,
    text: `${text.join('\n\n')}\n`,
    html: text.map((paragraph) => `<p>${paragraph}</p>`).join(''),
  };
}
