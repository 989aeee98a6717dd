import { createTransport } from 'nodemailer';
import { MailCatcher } from './mail-catcher';
import { rehearsalRefusals } from './rehearsal';

describe('rehearsalRefusals', () => {
  const catcher = new MailCatcher({ refuseRecipient: rehearsalRefusals() });
  const send = (to: string) =>
    createTransport({ host: '127.0.0.1', port: catcher.port, secure: false, ignoreTLS: true }).sendMail({
      from: 'app@example.com',
      to,
      subject: 's',
      text: 't',
    });

  beforeAll(() => catcher.start());
  afterAll(() => catcher.stop());

  it('refuses @bounce.test for good, as a mailbox that does not exist', async () => {
    for (let i = 0; i < 3; i++)
      await expect(send('gone@Bounce.test')).rejects.toMatchObject({ responseCode: 550 });
    expect(catcher.messages()).toHaveLength(0);
  });

  it('refuses @tempfail.test twice, then accepts it, per address', async () => {
    await expect(send('slow@tempfail.test')).rejects.toMatchObject({ responseCode: 451 });
    await expect(send('slow@tempfail.test')).rejects.toMatchObject({ responseCode: 451 });
    await expect(send('slow@tempfail.test')).resolves.toMatchObject({ accepted: ['slow@tempfail.test'] });
    await expect(send('other@tempfail.test')).rejects.toMatchObject({ responseCode: 451 });
    await expect(send('ann@example.com')).resolves.toMatchObject({ accepted: ['ann@example.com'] });
  });
});
