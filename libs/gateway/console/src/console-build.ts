import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Where index.html takes each response's CSP nonce (its `<meta name="csp-nonce">`). */
const NONCE_SLOT = '__CSP_NONCE__';

export type Encoding = 'br' | 'gzip' | 'identity';

/** One hashed asset of the build, compressed once on first request. */
export class ConsoleAsset {
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(
    readonly type: string,
    private readonly body: Buffer,
  ) {}

  bytes(encoding: Encoding): Promise<Buffer> {
    let bytes = this.encoded.get(encoding);
    if (bytes === undefined) {
      bytes =
        encoding === 'br'
          ? brotli(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
          : encoding === 'gzip'
            ? gzipped(this.body, { level: 9 })
            : Promise.resolve(this.body);
      this.encoded.set(encoding, bytes);
    }
    return bytes;
  }
}

/**
 * The console's Vite build (`dist/apps/console`), read once: index.html, with a fresh nonce for each
 * page load, the email-preview frame, and the content-hashed assets. Files are found by name in a
 * map, never by joining a requested path, so no request reaches beyond the build.
 */
export class ConsoleBuild {
  private constructor(
    private readonly page: readonly [string, string],
    readonly frame: string,
    private readonly assets: ReadonlyMap<string, ConsoleAsset>,
  ) {}

  /** The build in `dir`, or null when there is none (a run from the sources before `npm run build`). */
  static async load(dir: string): Promise<ConsoleBuild | null> {
    const index = await readFile(join(dir, 'index.html'), 'utf8').catch(() => null);
    if (index === null) return null;
    const parts = index.split(NONCE_SLOT);
    if (parts.length !== 2) throw new Error(`${dir}/index.html must hold ${NONCE_SLOT} once`);
    const frame = await readFile(join(dir, 'frame.html'), 'utf8');
    const assets = new Map<string, ConsoleAsset>();
    for (const file of await readdir(join(dir, 'assets')).catch(() => [])) {
      const type = TYPES[extname(file)];
      if (type !== undefined)
        assets.set(file, new ConsoleAsset(type, await readFile(join(dir, 'assets', file))));
    }
    return new ConsoleBuild([parts[0] ?? '', parts[1] ?? ''], frame, assets);
  }

  /** index.html and the nonce it carries, which its Content-Security-Policy must name. */
  pageWithNonce(): { html: string; nonce: string } {
    const nonce = randomBytes(16).toString('base64');
    return { html: `${this.page[0]}${nonce}${this.page[1]}`, nonce };
  }

  asset(file: string): ConsoleAsset | undefined {
    return this.assets.get(file);
  }
}

/** The best encoding the client accepts (q=0 refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0+)?\s*$/.test(part))
      .map((part) => part.split(';')[0]?.trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}
