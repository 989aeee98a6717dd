import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Everything the service writes is readable by its own user only: the embedded backends' files hold
 * provider credentials and personal data, and the all-in-one service's API key file a secret. The
 * umask covers files created from now on, by Node and by the native engines (LMDB, chDB); the walk
 * tightens a data directory created by an earlier version.
 */
export function keepFilesPrivate(dataDir: string): void {
  process.umask(0o077);
  if (!existsSync(dataDir)) return;
  const stack = [dataDir];
  while (stack.length > 0) {
    const path = stack.pop() as string;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
      for (const entry of readdirSync(path)) stack.push(join(path, entry));
    } else if ((stat.mode & 0o077) !== 0) {
      chmodSync(path, stat.mode & 0o700);
    }
  }
}
