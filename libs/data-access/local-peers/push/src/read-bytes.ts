import type { Readable } from 'node:stream';

/**
 * A request body as bytes (encrypted push payloads are binary; HTTP/2 streams are no
 * IncomingMessage), or undefined when it is larger than `maxBytes` (the rest is read and dropped).
 */
export function readBoundedBytes(stream: Readable, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    stream.on('end', () => resolve(size > maxBytes ? undefined : Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
