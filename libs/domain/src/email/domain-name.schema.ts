import { z } from 'zod';

/** A zod transform over a parse that answers a domain or why there is none (the problem as the issue). */
export const domainOrIssue =
  (parse: (text: string) => { domain: string } | { problem: string }) =>
  (text: string, ctx: z.RefinementCtx): string => {
    const found = parse(text);
    if ('domain' in found) return found.domain;
    ctx.addIssue({ code: 'custom', message: found.problem });
    return z.NEVER;
  };
