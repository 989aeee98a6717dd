import { Writable } from 'node:stream';
import { withCorrelationId } from './correlation';
import { createLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, logger: createLogger({ level: 'info', service: 'test', destination }) };
}

describe('createLogger', () => {
  it('redacts credentials and message bodies', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        apiKey: 'k',
        req: { headers: { authorization: 'Bearer abc' } },
        email: { html: '<p>hi</p>', subject: 's' },
      },
      'sent',
    );
    expect(lines[0]).toMatchObject({
      apiKey: '[redacted]',
      req: { headers: { authorization: '[redacted]' } },
      email: { html: '[redacted]', subject: 's' },
    });
    expect(JSON.stringify(lines[0])).not.toContain('abc');
  });

  it('stamps the correlation id of the surrounding request or message', () => {
    const { lines, logger } = capture();
    withCorrelationId('corr-123', () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', correlationId: 'corr-123', service: 'test' });
    expect(lines[1]).not.toHaveProperty('correlationId');
  });
});
