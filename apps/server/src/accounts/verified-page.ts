import type { ConfirmResult } from './registration-service';

const TEXT: Record<ConfirmResult, [string, string]> = {
  verified: [
    'Your e-mail address is verified',
    'Return to the Mates tab: it signs you in by itself in a moment.',
  ],
  'already-verified': ['This address was already verified', 'Return to Mates and sign in.'],
  expired: ['This link has expired', 'Sign up again with the same address to get a new link.'],
  unknown: ['This link is not valid', 'Check that you opened the whole link from the mail.'],
};

// The app's dark and light colours (the kit's theme tokens): the page follows the system's
// choice, and THEME_SCRIPT applies the one the person made in the app, kept in this browser.
const STYLE = `:root{color-scheme:dark;--bg:#121016;--text:#f1eef6;--accent:#c9a7ff;--on-accent:#1a1024}
@media (prefers-color-scheme:light){:root:not([data-theme=dark]){color-scheme:light;--bg:#fbf9fe;--text:#1d1626;--accent:#6f3fd1;--on-accent:#fff}}
:root[data-theme=light]{color-scheme:light;--bg:#fbf9fe;--text:#1d1626;--accent:#6f3fd1;--on-accent:#fff}
body{font-family:system-ui,sans-serif;background:var(--bg);color:var(--text);display:grid;place-items:center;min-height:100vh;margin:0}
main{max-width:28rem;padding:2rem;text-align:center}a{color:var(--accent)}
button{font:inherit;padding:.75rem 1.5rem;border:0;border-radius:.5rem;background:var(--accent);color:var(--on-accent);cursor:pointer}`;

// The app's icon, inline: the page is answered by the API, which may run without the built app
// (whose /icon.svg would then be missing), and the browser would otherwise ask for /favicon.ico.
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 512 512'%3E%3Crect width='512' height='512' rx='112' fill='%237c5cff'/%3E%3Cpath d='M256 410s-140-86-172-176c-20-58 18-122 84-122 40 0 70 24 88 54 18-30 48-54 88-54 66 0 104 64 84 122-32 90-172 176-172 176Z' fill='%23fbf9fe'/%3E%3C/svg%3E";

/** Where {@link THEME_SCRIPT} is served (a file of this site: the policy allows no inline script). */
export const THEME_SCRIPT_PATH = '/api/user/verify/theme.js';

/**
 * Applies the theme the person chose in the app: the web app's user store keeps it in this
 * browser's storage under `mates.user` (`theme`: `system`, `light` or `dark`).
 */
export const THEME_SCRIPT = `try{var t=JSON.parse(localStorage.getItem('mates.user')||'{}').theme;
if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="dark light">
<link rel="icon" href="${ICON}" type="image/svg+xml"><script src="${THEME_SCRIPT_PATH}"></script>
<style>${STYLE}</style><title>${title} · Mates</title></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;
}

/** The page a verification link answers once confirmed (or not): what happened, what next. */
export function verifiedPage(result: ConfirmResult, publicUrl: string): string {
  const [title, text] = TEXT[result];
  return page(title, `<p>${text}</p><p><a href="${publicUrl}/">Open Mates</a></p>`);
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
<form method="post" action="${action}"><button type="submit">Confirm my address</button></form>`,
  );
}
