import { randomBytes } from 'node:crypto';

/**
 * 96 random bits per `claimDue` call: a token from one claim can never match another claim's, across
 * replicas and restarts, without a shared counter. The item's place in the batch completes it.
 */
export function claimTokenSeed(): string {
  return randomBytes(12).toString('base64url');
}

/** `index` counts from 1, as the Redis script's Lua loop does, so both adapters mint the same shape. */
export function claimToken(seed: string, index: number): string {
  return `${seed}.${index}`;
}
