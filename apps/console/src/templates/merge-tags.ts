/** How deep and how many parameter paths completion offers: a send's parameters are bounded, not small. */
const MAX_DEPTH = 8;
const MAX_PATHS = 500;
/** A key Handlebars reads in a dotted path without brackets. */
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * The merge tags recent sends could fill: every parameter of each send request (the log's `request`,
 * its JSON body) as a dotted path (`order.id`). An array is offered by its own path, for
 * `{{#each}}`; an object by its leaves. Keys Handlebars cannot read plainly are left out.
 */
export function parameterPaths(requests: readonly unknown[]): string[] {
  const paths = new Set<string>();
  for (const request of requests) {
    const body = typeof request === 'string' ? parse(request) : request;
    if (isObject(body) && isObject(body['parameters'])) collect(body['parameters'], '', 0, paths);
  }
  return [...paths].sort();
}

function collect(value: Record<string, unknown>, prefix: string, depth: number, paths: Set<string>): void {
  for (const [key, inner] of Object.entries(value)) {
    if (paths.size >= MAX_PATHS) return;
    if (!PLAIN_KEY.test(key)) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isObject(inner) && depth + 1 < MAX_DEPTH) collect(inner, path, depth + 1, paths);
    else paths.add(path);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** What the text before the cursor is in the middle of typing: a parameter or a component's name. */
export interface MergeTagContext {
  kind: 'parameter' | 'component';
  /** Where the name typed so far starts, in the text given. */
  from: number;
  typed: string;
}

/**
 * After `{{` (or a block helper's `{{#each `, `{{#if `…) a parameter is being named; after `{{>`, a
 * component (a partial). Anything else is not a merge tag.
 */
export function mergeTagAt(before: string): MergeTagContext | null {
  const match = /\{\{(?:(>)\s*|#(?:if|unless|each|with)\s+)?([\w.$-]*)$/.exec(before);
  if (match === null) return null;
  const typed = match[2] ?? '';
  return { kind: match[1] === '>' ? 'component' : 'parameter', from: before.length - typed.length, typed };
}
