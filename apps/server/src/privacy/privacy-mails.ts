import type { Mail } from '../mail/mailer';

/** Tells the owner that their data is ready, with a link to the profile that downloads it. */
export function dataReadyMail(email: string, publicUrl: string, expiresAt: string): Mail {
  const link = `${publicUrl}/#/profile`;
  const until = new Date(expiresAt).toUTCString();
  const text = [
    'Your Mates data is ready to download: every chat, your mates, pictures, voice clips and the rest, in one zip file.',
    `Download it from your profile, signed in to this account:\n${link}`,
    `It can be downloaded until ${until}; then it is removed. If you did not ask for it, change your password: someone signed in as you did.`,
  ];
  return {
    to: email,
    subject: 'Your Mates data is ready',
    text: `${text.join('\n\n')}\n`,
    html: [
      `<p>${text[0]}</p>`,
      `<p><a href="${link}">Download it from your profile</a>, signed in to this account.</p>`,
      `<p>${text[2]}</p>`,
    ].join(''),
  };
}

/** Tells the owner that their account and everything in it were deleted. */
export function accountDeletedMail(email: string): Mail {
  const text = [
    'Your Mates account was deleted, as you asked: your chats, personas, pictures, voice clips and private mates are gone, and every device was signed out.',
    'You can sign up again with this address at any time, as a new member.',
  ];
  return {
    to: email,
    subject: 'Your Mates account was deleted',
    text: `${text.join('\n\n')}\n`,
    html: text.map((paragraph) => `<p>${paragraph}</p>`).join(''),
  };
}
