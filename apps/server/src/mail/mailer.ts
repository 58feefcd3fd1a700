import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../logging/logger';

/** One e-mail. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail: over SMTP, or into the outbox folder as `.eml` files. */
export interface Mailer {
  send: (mail: Mail) => Promise<void>;
  /** Where mail goes, for the start-up log. */
  describe: () => string;
}

/** Options of {@link createMailer}. */
export interface MailerOptions {
  smtpUrl: string | undefined;
  outboxDir: string;
  from: string;
  log?: Logger;
}

/**
 * nodemailer's transport for `settings`, made at the first mail: the library costs several
 * megabytes resident, which a server that sends no mail never needs.
 */
function transportOnFirstMail(
  settings: string | { streamTransport: true; buffer: true },
): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(settings),
    ));
}

/** SMTP through nodemailer when `smtpUrl` is set; otherwise `.eml` files in `outboxDir`. */
export function createMailer(options: MailerOptions): Mailer {
  const { from, log } = options;
  if (options.smtpUrl) {
    const transport = transportOnFirstMail(options.smtpUrl);
    const where = new URL(options.smtpUrl).host;
    return {
      send: async (mail) => {
        await (await transport()).sendMail({ from, ...mail });
      },
      describe: () => `SMTP at ${where}`,
    };
  }
  const transport = transportOnFirstMail({ streamTransport: true, buffer: true });
  return {
    send: async (mail) => {
      const info = await (await transport()).sendMail({ from, ...mail });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(options.outboxDir, `${Date.now()}-${safeTo}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log?.info(`mail to ${mail.to} ("${mail.subject}") written to ${file}`);
    },
    describe: () => `the outbox folder ${options.outboxDir} (set SMTP_URL to send real mail)`,
  };
}
