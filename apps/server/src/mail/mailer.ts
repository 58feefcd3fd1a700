import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
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

/** SMTP through nodemailer when `smtpUrl` is set; otherwise `.eml` files in `outboxDir`. */
export function createMailer(options: MailerOptions): Mailer {
  const { from, log } = options;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    const where = new URL(options.smtpUrl).host;
    return {
      send: async (mail) => {
        await transport.sendMail({ from, ...mail });
      },
      describe: () => `SMTP at ${where}`,
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    send: async (mail) => {
      const info = await transport.sendMail({ from, ...mail });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(options.outboxDir, `${Date.now()}-${safeTo}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log?.info(`mail to ${mail.to} ("${mail.subject}") written to ${file}`);
    },
    describe: () => `the outbox folder ${options.outboxDir} (set SMTP_URL to send real mail)`,
  };
}
