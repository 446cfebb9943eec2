import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../config/config';
import { createMailer } from './mailer';

describe('createMailer', () => {
  it('writes the message to the log when SMTP_URL is not set, so a developer can finish signup', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const mailer = createMailer(loadConfig({}), pino({ level: 'info' }, stream));
    await mailer.send({ to: 'dev@example.test', subject: 'Your verification code', text: 'Your verification code is 123456.' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 40, mail: { to: 'dev@example.test', text: expect.stringContaining('123456') } });
  });
});
