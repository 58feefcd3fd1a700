import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { PUBLIC_MATES_CHOICES } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { mediaOf } from '../media/media-of';
import { serveStored } from '../media/serve-stored';
import { googleVerifier } from '../accounts/google';
import { consume } from '../accounts/rate-limits';
import { paymentDeps } from '../payments/payment-deps';
import {
  dataExportStatus,
  defineDataExportJob,
  exportDownload,
  exportTicket,
  requestDataExport,
  ticketDownload,
  type DataExportDeps,
} from './data-export-service';
import {
  deleteAccount,
  deletionPreview,
  type AccountDeletionDeps,
} from './account-deletion-service';

const deletePayload = z.object({
  password: z.string().max(1024).optional(),
  googleCredential: z.string().min(1).max(4096).optional(),
  discordCode: z.string().min(1).max(512).optional(),
  publicMates: z.enum(PUBLIC_MATES_CHOICES),
});

const downloadQuery = z.object({
  exportId: z.string().max(64),
  expires: z.string().max(16),
  signature: z.string().max(128),
});

const ticketQuery = z.object({
  exportId: z.string().max(64),
  expires: z.string().max(16),
  ticket: z.string().max(128),
});

const ticketPayload = z.object({ downloadUrl: z.string().min(1).max(512) });

/**
 * "Your data": `/user/exportData` (build a zip of everything), `/user/exportStatus` (where it
 * stands, a fresh download link once ready), `/user/exportTicket` (a minute's link the browser
 * downloads by itself), `/user/exportDownload` (the zip, by a ticket or a signed link of its
 * owner's with the owner's session), `/user/deletionPreview` and `/user/deleteAccount`.
 * Registers the export job.
 */
export function privacyRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');
  const media = mediaOf(deps.config);
  const exports: DataExportDeps = { ...deps, media };
  defineDataExportJob(exports);
  const verifyGoogle = googleVerifier(deps.config, deps.fetch);
  const payments = paymentDeps(deps.db, deps.config);
  const closing = (c: Context<ApiEnv>): AccountDeletionDeps => ({
    ...deps,
    media,
    payments,
    verifyGoogle,
    log: c.get('log'),
  });

  api.post('/user/exportData', (c) =>
    requestDataExport(exports, requireUser(c), c.get('language')),
  );

  api.get('/user/exportStatus', (c) =>
    dataExportStatus(exports, requireUser(c), c.get('language')),
  );

  api.post('/user/exportTicket', ticketPayload, async (c, read) =>
    exportTicket(exports, (await read()).downloadUrl, requireUser(c).id),
  );

  // Not through `contract`: it answers the zip's bytes, not an envelope. Either a ticket (a
  // minute's link the owner's session asked for, which the browser downloads by itself), or
  // both the link, signed for the owner and short-lived, and the owner's own session (the
  // `token` header). Signed out without a ticket, the answer is the envelope's 5002 (sign in,
  // then download); another person's session finds nothing.
  const byLink = (c: Context<ApiEnv>) => {
    const user = requireUser(c);
    const link = downloadQuery.safeParse(c.req.query());
    return link.success ? exportDownload(exports, link.data, user.id) : null;
  };
  routes.get('/exportDownload', async (c) => {
    const ticket = ticketQuery.safeParse(c.req.query());
    const zip = ticket.success ? await ticketDownload(exports, ticket.data) : await byLink(c);
    if (!zip) return c.text('Not found', 404);
    return serveStored(media, zip.key, c.req.raw, {
      contentType: 'application/zip',
      cacheControl: 'private, no-store',
      headers: {
        'content-disposition': `attachment; filename="${zip.fileName}"`,
        'x-content-type-options': 'nosniff',
      },
    });
  });

  api.get('/user/deletionPreview', (c) => deletionPreview(deps, requireUser(c)));

  api.post('/user/deleteAccount', deletePayload, async (c, read) => {
    const user = requireUser(c);
    // Each try proves the person with their password (or a sign-in): counted with the password
    // changes', so a session in other hands cannot guess the password through it.
    await consume(deps.limits.changePassword, user.id);
    await deleteAccount(closing(c), user, await read());
    return null;
  });
  return routes;
}
