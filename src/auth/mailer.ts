import { createTransport } from 'nodemailer';
import type { Logger } from '../common/logger';
import type { Config } from '../config/config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail (verification codes). One instance per process, in AppDeps. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise the message is written to the log (warn)
 * so a developer can finish the signup flow locally.
 */
export function createMailer(config: Config, logger: Logger): Mailer {
  const { smtpUrl, mailFrom } = config.auth;
  if (!smtpUrl) {
    return {
      async send(message) {
        logger.warn({ mail: message }, 'SMTP_URL is not set: e-mail written to the log instead of sent');
      },
    };
  }
  const transport = createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: mailFrom, ...message });
    },
  };
}
