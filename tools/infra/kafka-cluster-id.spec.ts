import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The Kafka storage format reads its cluster id as a command-line argument: an id starting with '-'
// is taken for an option and the first start of a fresh broker fails (about 1 fresh start in 64).
describe('kafka_cluster_id (tools/infra/services/kafka.sh)', () => {
  const draws = 3000;
  const ids = execFileSync(
    'bash',
    [
      '-c',
      `source "$0/lib.sh"; source "$0/services/kafka.sh"; for _ in $(seq ${draws}); do kafka_cluster_id; done`,
      join(__dirname),
    ],
    { encoding: 'utf8', env: { ...process.env, NOTIFY_INFRA_DATA: '/nonexistent' } },
  )
    .trim()
    .split('\n');

  it('draws base64url ids of 16 bytes', () => {
    expect(ids).toHaveLength(draws);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('never starts an id with "-" (3,000 draws would give about 47 such ids otherwise)', () => {
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
    expect(new Set(ids).size).toBe(draws);
  });
});
