import type { ConfirmResult } from './verification';

const TEXT: Record<ConfirmResult, [string, string]> = {
  verified: [
    'Your e-mail address is verified',
    'Return to the Mates tab: it signs you in by itself in a moment.',
  ],
  'already-verified': ['This address was already verified', 'Return to Mates and sign in.'],
  expired: ['This link has expired', 'Sign up again with the same address to get a new link.'],
  unknown: ['This link is not valid', 'Check that you opened the whole link from the mail.'],
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Mates</title></head>
<body style="font-family:system-ui,sans-serif;background:#121016;color:#f1eef6;display:grid;place-items:center;min-height:100vh;margin:0">
<main style="max-width:28rem;padding:2rem;text-align:center"><h1>${title}</h1>${body}</main></body></html>`;
}

/** The page a verification link answers once confirmed (or not): what happened, what next. */
export function verifiedPage(result: ConfirmResult, publicUrl: string): string {
  const [title, text] = TEXT[result];
  return page(
    title,
    `<p>${text}</p><p><a style="color:#c9a7ff" href="${publicUrl}/">Open Mates</a></p>`,
  );
}

/**
 * The page the mailed link opens: a button that confirms. Opening the link changes nothing,
 * because mail scanners open every link they see; only a person pressing the button (a POST)
 * verifies the address.
 */
export function confirmPage(confirmUrl: string): string {
  const action = confirmUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return page(
    'Confirm your e-mail address',
    `<p>Press the button to confirm that this address is yours and finish signing up to Mates.</p>
<form method="post" action="${action}"><button type="submit" style="font:inherit;padding:.75rem 1.5rem;border:0;border-radius:.5rem;background:#c9a7ff;color:#121016;cursor:pointer">Confirm my address</button></form>`,
  );
}
