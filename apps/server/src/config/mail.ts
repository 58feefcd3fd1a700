import path from 'node:path';
import { z } from 'zod';
import type { VariableValues } from './environment';

/** The mail variables: an SMTP server, else files in an outbox folder. */
export const mailVariables = {
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Mates <no-reply@mates.local>'),
};

/** The part of the configuration the mail variables give. */
export interface MailSettings {
  smtpUrl: string | undefined;
  mailOutboxDir: string;
  mailFrom: string;
}

/** Reads the mail settings; the outbox is `$DATA_DIR/outbox` unless `MAIL_OUTBOX_DIR` is set. */
export function readMailSettings(
  values: VariableValues<typeof mailVariables>,
  dataDir: string,
): MailSettings {
  return {
    smtpUrl: values.SMTP_URL,
    mailOutboxDir: path.resolve(values.MAIL_OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    mailFrom: values.MAIL_FROM,
  };
}
