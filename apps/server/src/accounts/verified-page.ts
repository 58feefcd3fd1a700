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

/** The small page a verification link opens. */
export function verifiedPage(result: ConfirmResult, publicUrl: string): string {
  const [title, text] = TEXT[result];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Mates</title></head>
<body style="font-family:system-ui,sans-serif;background:#121016;color:#f1eef6;display:grid;place-items:center;min-height:100vh;margin:0">
<main style="max-width:28rem;padding:2rem;text-align:center"><h1>${title}</h1><p>${text}</p>
<p><a style="color:#c9a7ff" href="${publicUrl}/">Open Mates</a></p></main></body></html>`;
}
