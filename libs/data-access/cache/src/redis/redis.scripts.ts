import type { Redis, Result } from 'ioredis';

/*
 * Each script touches only keys passed in KEYS (one queue's keys share a hash tag), which Redis
 * Cluster requires. ioredis runs them with EVALSHA and falls back to EVAL when the server lacks them.
 */

/** Sets the expiry only when this call created the counter: later increments never extend a window. */
const INCREMENT = `
local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if created then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value
`;

/** Dropping the claim token is what invalidates an outstanding claim of an earlier schedule. */
const SCHEDULE = `
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`;

/**
 * Re-scoring a claimed item to the end of its lease is what makes an unacknowledged claim due again
 * without a reaper. Returns a flat list: id, item JSON, token, id, item JSON, token…
 */
const CLAIM_DUE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local claimed = {}
for i, id in ipairs(ids) do
  local item = redis.call('HGET', KEYS[2], id)
  if item then
    local token = ARGV[4] .. '.' .. i
    redis.call('HSET', KEYS[3], id, token)
    redis.call('ZADD', KEYS[1], ARGV[3], id)
    claimed[#claimed + 1] = id
    claimed[#claimed + 1] = item
    claimed[#claimed + 1] = token
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return claimed
`;

const ACK = `
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
`;

const CANCEL = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return redis.call('HDEL', KEYS[2], ARGV[1])
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    coordIncrement(key: string, by: number, ttlMs: number): Result<number, Context>;
    coordSchedule(
      due: string,
      items: string,
      claims: string,
      id: string,
      item: string,
      dueAt: number,
    ): Result<number, Context>;
    coordClaimDue(
      due: string,
      items: string,
      claims: string,
      now: number,
      limit: number,
      leaseUntil: number,
      tokenSeed: string,
    ): Result<string[], Context>;
    coordAck(due: string, items: string, claims: string, id: string, token: string): Result<number, Context>;
    coordCancel(due: string, items: string, claims: string, id: string): Result<number, Context>;
  }
}

export function defineCoordinationCommands(redis: Redis): void {
  redis.defineCommand('coordIncrement', { numberOfKeys: 1, lua: INCREMENT });
  redis.defineCommand('coordSchedule', { numberOfKeys: 3, lua: SCHEDULE });
  redis.defineCommand('coordClaimDue', { numberOfKeys: 3, lua: CLAIM_DUE });
  redis.defineCommand('coordAck', { numberOfKeys: 3, lua: ACK });
  redis.defineCommand('coordCancel', { numberOfKeys: 3, lua: CANCEL });
}
