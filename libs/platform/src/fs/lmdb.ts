import { open, type RootDatabase, type RootDatabaseOptions, TransactionFlags } from 'lmdb';
import { GroupCommit } from './group-commit';

/**
 * The durability of every embedded (LMDB) backend: a write is acknowledged once committed — in
 * the memory-mapped file, so a crash of the process loses nothing — and flushed to disk right
 * behind (LMDB's overlapping sync). Waiting for the flush on every write would cost an fsync
 * (~20 ms here) per send; a machine crash can lose the last few milliseconds of writes, which the
 * cluster backends (Kafka acks=all, MongoDB, Redis) are there for.
 */
export function openLmdb(path: string, options: Pick<RootDatabaseOptions, 'maxDbs'>): RootDatabase {
  return open({ path, compression: false, separateFlushed: true, ...options });
}

/**
 * How long an embedded backend's write waits for others to share its commit (see GroupCommit): at
 * 200 sends/s, 2 ms left 2.3 bus commits per email and 5 ms about one, for a few ms per hop.
 */
export const LMDB_COMMIT_LINGER_MS = 5;

/** Group commit over an LMDB environment: the gathered writes run in one write transaction. */
export function lmdbGroupCommit(root: RootDatabase, lingerMs = LMDB_COMMIT_LINGER_MS): GroupCommit {
  return new GroupCommit(
    (writes) =>
      root.transaction(() => {
        for (const write of writes) write();
      }),
    lingerMs,
  );
}

/** For `transactionSync`: commit before returning, without waiting for the flush. */
export const COMMIT_WITHOUT_FLUSH =
  TransactionFlags.ABORTABLE | TransactionFlags.SYNCHRONOUS_COMMIT | TransactionFlags.NO_SYNC_FLUSH;
