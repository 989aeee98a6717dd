import { type z } from 'zod';

/** Every problem found in the environment, each naming the variable at fault. */
export class InvalidConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InvalidConfigError';
  }
}

/** A variable that becomes required when another one selects a feature (e.g. a driver). */
export interface Requirement {
  readonly variable: string;
  readonly when: (env: Record<string, string>) => boolean;
  readonly because: string;
}

/**
 * Parses raw environment variables with a schema that names each variable, and reports all problems
 * at once (an operator fixing one variable at a time would restart the service over and over).
 */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
  requirements: readonly Requirement[] = [],
): z.output<S> {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
  const result = schema.safeParse(cleaned);
  const missing = requirements
    .filter((r) => r.when(cleaned) && cleaned[r.variable] === undefined)
    .map((r) => `${r.variable}: required when ${r.because}`);
  if (result.success && missing.length === 0) return result.data;
  const issues = result.success ? [] : result.error.issues;
  const problems = issues.map((issue) => {
    const variable = issue.path.length > 0 ? issue.path.join('.') : 'environment';
    const received = typeof issue.path[0] === 'string' ? cleaned[issue.path[0]] : undefined;
    const shown =
      received === undefined || /SECRET|PASSWORD|KEY|TOKEN/i.test(variable)
        ? ''
        : ` (got "${withoutCredentials(received)}")`;
    return `${variable}: ${issue.message}${shown}`;
  });
  throw new InvalidConfigError([...problems, ...missing]);
}

/** A value as it may be shown: a URL's password (mongodb://user:secret@host) is replaced. */
export function withoutCredentials(value: string): string {
  try {
    const url = new URL(value);
    if (url.password === '') return value;
    url.password = '****';
    return url.toString();
  } catch {
    // Not a URL: still hide anything shaped like user:password@ (e.g. a half-typed URL).
    return value.replace(/:[^:@/]*@/, ':****@');
  }
}
