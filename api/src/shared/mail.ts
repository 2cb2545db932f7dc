/**
 * The API's own mail through SMTP (nodemailer; SMTP_URL, MAIL_FROM): the password links (features/password)
 * and the second factors' notices (features/second-factor). One transport per SMTP URL, kept for the
 * process. A request's mails are the worker's (the outbox), never this.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { ApiConfig } from '../config';

const transports = new Map<string, Transporter>();

/** The transport of `cfg`'s server, bounded by SMTP_TIMEOUT_MS (nodemailer's own waits are minutes long). */
function transportFor(cfg: Pick<ApiConfig, 'SMTP_URL' | 'SMTP_TIMEOUT_MS'>): Transporter {
  const key = `${cfg.SMTP_URL} ${cfg.SMTP_TIMEOUT_MS}`;
  let t = transports.get(key);
  if (!t) {
    const ms = cfg.SMTP_TIMEOUT_MS;
    t = nodemailer.createTransport({
      url: cfg.SMTP_URL,
      connectionTimeout: ms,
      greetingTimeout: ms,
      socketTimeout: ms,
    });
    transports.set(key, t);
  }
  return t;
}

/**
 * Sends one plain-text mail from MAIL_FROM; `lines` are joined with line breaks, runs of blank lines folded
 * into one. @throws when the SMTP server refuses it, cannot be reached, or does not answer within SMTP_TIMEOUT_MS.
 */
export async function sendApiMail(
  cfg: ApiConfig,
  mail: { to: string; subject: string; lines: string[] },
): Promise<void> {
  const text = mail.lines.filter((line, i, all) => line !== '' || all[i - 1] !== '').join('\n');
  await transportFor(cfg).sendMail({ from: cfg.MAIL_FROM, to: mail.to, subject: mail.subject, text });
}
