/** The part of http_ece (RFC 8188 / RFC 8291 content coding) the web push peer uses; it ships no types. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  export interface DecryptParams {
    readonly version: 'aes128gcm';
    /** The receiver's key pair: the subscription's. */
    readonly privateKey: ECDH;
    /** The subscription's 16-byte auth secret (base64url, or bytes). */
    readonly authSecret: string | Buffer;
  }

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
