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

/**
 * Shared by every script that removes or replaces a queue item (KEYS[4] charges, KEYS[5] quota):
 * an item counted against a pool gives its share back when it leaves.
 */
const REFUND = `
local function charge_of(id)
  local charge = redis.call('HGET', KEYS[4], id)
  if not charge then return nil end
  local sep = string.find(charge, ':', 1, true)
  return string.sub(charge, sep + 1), tonumber(string.sub(charge, 1, sep - 1))
end
local function refund(id)
  local pool, bytes = charge_of(id)
  if not pool then return end
  redis.call('HDEL', KEYS[4], id)
  if redis.call('HINCRBY', KEYS[5], 'n:' .. pool, -1) <= 0 then
    redis.call('HDEL', KEYS[5], 'n:' .. pool, 'b:' .. pool)
  else
    redis.call('HINCRBY', KEYS[5], 'b:' .. pool, -bytes)
  end
end
`;

/** Dropping the claim token is what invalidates an outstanding claim of an earlier schedule. */
const SCHEDULE = `${REFUND}
refund(ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`;

/** ARGV: id, item JSON, due time, pool, payload bytes, the pool's most items, its most bytes. */
const SCHEDULE_WITHIN = `${REFUND}
local pool = ARGV[4]
local size = tonumber(ARGV[5])
local count = tonumber(redis.call('HGET', KEYS[5], 'n:' .. pool) or '0')
local bytes = tonumber(redis.call('HGET', KEYS[5], 'b:' .. pool) or '0')
local was_pool, was_bytes = charge_of(ARGV[1])
if was_pool == pool then
  count = count - 1
  bytes = bytes - was_bytes
end
if count + 1 > tonumber(ARGV[6]) then return 'too-many' end
if bytes + size > tonumber(ARGV[7]) then return 'too-large' end
refund(ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], size .. ':' .. pool)
redis.call('HINCRBY', KEYS[5], 'n:' .. pool, 1)
redis.call('HINCRBY', KEYS[5], 'b:' .. pool, size)
return 'scheduled'
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

const ACK = `${REFUND}
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
refund(ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
`;

const CANCEL = `${REFUND}
refund(ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return redis.call('HDEL', KEYS[2], ARGV[1])
`;

/**
 * Expiry only ever grows here: a later append with a shorter life (a window whose end is nearer)
 * must not cut short what an earlier one gave.
 */
const EXTEND = `
local function extend(key, ttl)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
`;

/** KEYS: pool, items, ids, meta. ARGV: id, value, most items, most bytes, pool's most bytes, TTL. */
const APPEND = `${EXTEND}
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return 'present' end
local size = string.len(ARGV[2])
local held = tonumber(redis.call('HGET', KEYS[4], 'bytes') or '0')
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[3]) or held + size > tonumber(ARGV[4]) then
  return 'buffer-full'
end
if tonumber(redis.call('GET', KEYS[1]) or '0') + size > tonumber(ARGV[5]) then return 'pool-full' end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], 1)
redis.call('HINCRBY', KEYS[4], 'bytes', size)
redis.call('INCRBY', KEYS[1], size)
local ttl = tonumber(ARGV[6])
for i = 1, 4 do extend(KEYS[i], ttl) end
return 'appended'
`;

/**
 * KEYS: pool, items, ids, meta. ARGV: how many of the first items to drop (-1: all). Answers how
 * many are left. Dropped items' ids stay held while the buffer lives (they were released).
 */
const DROP = `
local function refund(bytes)
  if bytes > 0 and redis.call('EXISTS', KEYS[1]) == 1 then
    if redis.call('DECRBY', KEYS[1], bytes) <= 0 then redis.call('DEL', KEYS[1]) end
  end
end
local n = tonumber(ARGV[1])
local len = redis.call('LLEN', KEYS[2])
if n >= 0 and len > n then
  local bytes = 0
  if n > 0 then
    for _, value in ipairs(redis.call('LRANGE', KEYS[2], 0, n - 1)) do bytes = bytes + string.len(value) end
    redis.call('LTRIM', KEYS[2], n, -1)
    redis.call('HINCRBY', KEYS[4], 'bytes', -bytes)
  end
  refund(bytes)
  return len - n
end
local bytes = tonumber(redis.call('HGET', KEYS[4], 'bytes') or '0')
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
refund(bytes)
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    coordIncrement(key: string, by: number, ttlMs: number): Result<number, Context>;
    coordSchedule(
      due: string,
      items: string,
      claims: string,
      charges: string,
      quota: string,
      id: string,
      item: string,
      dueAt: number,
    ): Result<number, Context>;
    coordScheduleWithin(
      due: string,
      items: string,
      claims: string,
      charges: string,
      quota: string,
      id: string,
      item: string,
      dueAt: number,
      pool: string,
      bytes: number,
      maxItems: number,
      maxBytes: number,
    ): Result<string, Context>;
    coordClaimDue(
      due: string,
      items: string,
      claims: string,
      now: number,
      limit: number,
      leaseUntil: number,
      tokenSeed: string,
    ): Result<string[], Context>;
    coordAck(
      due: string,
      items: string,
      claims: string,
      charges: string,
      quota: string,
      id: string,
      token: string,
    ): Result<number, Context>;
    coordCancel(
      due: string,
      items: string,
      claims: string,
      charges: string,
      quota: string,
      id: string,
    ): Result<number, Context>;
    coordAppend(
      pool: string,
      items: string,
      ids: string,
      meta: string,
      id: string,
      value: string,
      maxItems: number,
      maxBytes: number,
      poolMaxBytes: number,
      ttlMs: number,
    ): Result<string, Context>;
    coordDrop(pool: string, items: string, ids: string, meta: string, count: number): Result<number, Context>;
  }
}

export function defineCoordinationCommands(redis: Redis): void {
  redis.defineCommand('coordIncrement', { numberOfKeys: 1, lua: INCREMENT });
  redis.defineCommand('coordSchedule', { numberOfKeys: 5, lua: SCHEDULE });
  redis.defineCommand('coordScheduleWithin', { numberOfKeys: 5, lua: SCHEDULE_WITHIN });
  redis.defineCommand('coordClaimDue', { numberOfKeys: 3, lua: CLAIM_DUE });
  redis.defineCommand('coordAck', { numberOfKeys: 5, lua: ACK });
  redis.defineCommand('coordCancel', { numberOfKeys: 5, lua: CANCEL });
  redis.defineCommand('coordAppend', { numberOfKeys: 4, lua: APPEND });
  redis.defineCommand('coordDrop', { numberOfKeys: 4, lua: DROP });
}
