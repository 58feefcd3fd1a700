import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createMailer } from '../src/mail/mailer';
import { createTestApp, linkIn } from './harness';
import { captureLog } from './log-capture';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

describe('mail', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let port: number;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString(),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('sends the verification mail over SMTP, and its link verifies the address', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: '/nonexistent',
      from: 'Mates <no-reply@mates.test>',
    });
    expect(mailer.describe()).toBe(`SMTP at 127.0.0.1:${port}`);
    const app = await createTestApp('sqlite', { mailer });
    try {
      const { verifyTicket } = await app
        .client()
        .user.register({ email: 'smtp@example.com', password: 'correct horse' });
      expect(received).toHaveLength(1);
      const mail = received[0]!;
      expect(mail.from).toBe('no-reply@mates.test');
      expect(mail.to).toEqual(['smtp@example.com']);
      expect(mail.raw).toContain('Subject: Confirm your e-mail address for Mates');
      // Quoted-printable may wrap long lines; undo it before reading the link.
      const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = new URL(linkIn({ text }));
      expect(link.origin).toBe('http://mates.test');
      await app.app.request(link.pathname + link.search, { method: 'POST' });
      expect(
        await app.client().user.verifyStatus({ email: 'smtp@example.com', verifyTicket }),
      ).toMatchObject({ verified: true });
    } finally {
      await app.close();
    }
  });

  it('writes .eml files to the outbox when no SMTP server is set', async () => {
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-outbox-'));
    const lines: string[] = [];
    const mailer = createMailer({
      smtpUrl: undefined,
      outboxDir,
      from: 'Mates <no-reply@mates.test>',
      log: captureLog('debug', lines).logger,
    });
    await mailer.send({
      to: 'out@example.com',
      subject: 'Hello',
      text: 'Plain body',
      html: '<p>Plain body</p>',
    });
    const files = fs.readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d+-out@example\.com\.eml$/);
    const eml = fs.readFileSync(path.join(outboxDir, files[0]!), 'utf8');
    expect(eml).toContain('To: out@example.com');
    expect(eml).toContain('Subject: Hello');
    expect(eml).toContain('Plain body');
    expect(lines[0]).toContain('written to');
    fs.rmSync(outboxDir, { recursive: true });
  });
});
