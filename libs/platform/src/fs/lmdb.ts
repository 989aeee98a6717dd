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
 * How long an embedded backend's write waits for others to share its commit (see GroupCommit). An
 * LMDB commit costs about the same CPU whatever it holds, so a longer wait means fewer commits per
 * send but a later acknowledgement: 5 ms cost a tenth less CPU per email than 2 ms at 200 sends/s
 * (the cluster benchmark), and adds at most 5 ms to a write, against a send's tens of milliseconds.
 */
const LMDB_COMMIT_LINGER_MS = 5;

/** Group commit over an LMDB environment: the gathered writes run in one write transaction. */
export function lmdbGroupCommit(root: RootDatabase): GroupCommit {
  return new GroupCommit(
    (writes) =>
      root.transaction(() => {
        for (const write of writes) write();
      }),
    LMDB_COMMIT_LINGER_MS,
  );
}

/** For `transactionSync`: commit before returning, without waiting for the flush. */
export const COMMIT_WITHOUT_FLUSH =
  TransactionFlags.ABORTABLE | TransactionFlags.SYNCHRONOUS_COMMIT | TransactionFlags.NO_SYNC_FLUSH;
