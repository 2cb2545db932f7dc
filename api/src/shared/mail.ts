/**
 * The API's own mail through SMTP (nodemailer; SMTP_URL, MAIL_FROM): the password links (features/password)
 * and the second factors' notices (features/second-factor). One transport per SMTP URL, kept for the
 * process. A request's mails are the worker's (the outbox), never this.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { ApiConfig } from '../config';

const transports = new Map<string, Transporter>();

function transportFor(smtpUrl: string): Transporter {
  let t = transports.get(smtpUrl);
  if (!t) {
    t = nodemailer.createTransport(smtpUrl);
    transports.set(smtpUrl, t);
  }
  return t;
}

/**
 * Sends one plain-text mail from MAIL_FROM; `lines` are joined with line breaks, runs of blank lines folded
 * into one. @throws when the SMTP server refuses it or cannot be reached.
 */
export async function sendApiMail(
  cfg: ApiConfig,
  mail: { to: string; subject: string; lines: string[] },
): Promise<void> {
  const text = mail.lines.filter((line, i, all) => line !== '' || all[i - 1] !== '').join('\n');
  await transportFor(cfg.SMTP_URL).sendMail({ from: cfg.MAIL_FROM, to: mail.to, subject: mail.subject, text });
}
