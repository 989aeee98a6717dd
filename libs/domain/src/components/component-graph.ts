import { InvalidRequestError } from '@notify/util';
import {
  type Component,
  type ComponentReference,
  MAX_COMPONENT_CALLS,
  MAX_COMPONENT_DEPTH,
} from './component';
import { componentCallsByStored } from './component-partials';

/** Each component's id and the ids of the components its HTML calls, once per call (see componentCalls). */
export type ComponentGraph = ReadonlyMap<string, readonly string[]>;

/** The graph of stored components, read from their HTML. */
export const componentGraphOf = (components: readonly Component[]): Map<string, readonly string[]> =>
  new Map(components.map((c) => [c.componentId, componentCallsByStored(c.html)]));

const chain = (ids: readonly string[]) => ids.join(' → ');

/** A cycle through `from`, as the ids along it (first and last the same), or undefined. */
function cycleFrom(graph: ComponentGraph, from: string): string[] | undefined {
  const path: string[] = [];
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (id: string): string[] | undefined => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return undefined;
    path.push(id);
    onPath.add(id);
    for (const next of graph.get(id) ?? []) {
      const cycle = visit(next);
      if (cycle !== undefined) return cycle;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return undefined;
  };
  return visit(from);
}

/**
 * A memoised walk over a graph: `step` computes a node's value from its neighbours' (through the
 * function it is given). A neighbour still being computed is a cycle, which saves refuse but
 * concurrent saves could store: it counts as `onCycle`, so no walk recurses without end.
 */
function walk<T>(
  neighbours: (id: string) => readonly string[],
  step: (id: string, of: readonly T[]) => T,
  onCycle: T,
): (id: string) => T {
  const known = new Map<string, T>();
  const walking = new Set<string>();
  const value = (id: string): T => {
    const found = known.get(id);
    if (found !== undefined) return found;
    if (walking.has(id)) return onCycle;
    walking.add(id);
    const result = step(id, [...new Set(neighbours(id))].map(value));
    walking.delete(id);
    known.set(id, result);
    return result;
  };
  return value;
}

const longer = (a: string[], b: string[]) => (b.length > a.length ? b : a);

/** The longest chain of nested components that runs through `through`. */
function longestChainThrough(graph: ComponentGraph, through: string): string[] {
  const users = new Map<string, string[]>();
  for (const [id, uses] of graph) for (const used of uses) users.set(used, [...(users.get(used) ?? []), id]);
  const below = walk<string[]>(
    (id) => graph.get(id) ?? [],
    (id, chains) => [id, ...chains.reduce(longer, [])],
    [],
  );
  const above = walk<string[]>(
    (id) => users.get(id) ?? [],
    (id, chains) => [...chains.reduce(longer, []), id],
    [],
  );
  return [...above(through), ...below(through).slice(1)];
}

/**
 * How many component runs a render of each component amounts to: every call counts, and with
 * it every call the called component makes, however deep. Capped just above MAX_COMPONENT_CALLS.
 */
export function componentRuns(graph: ComponentGraph): (id: string) => number {
  const runs: (id: string) => number = walk<number>(
    (id) => graph.get(id) ?? [],
    (id) => runsOf(graph.get(id) ?? [], runs),
    0,
  );
  return runs;
}

/** The component runs of a list of calls: each call, and the runs of what it calls. */
const runsOf = (calls: readonly string[], runs: (id: string) => number) =>
  Math.min(
    calls.reduce((total, id) => total + 1 + runs(id), 0),
    MAX_COMPONENT_CALLS + 1,
  );

const tooManyRuns = (what: string, runs: number) =>
  refuse(
    'TOO_MANY_COMPONENT_CALLS',
    `${what} would run ${runs > MAX_COMPONENT_CALLS ? `more than ${MAX_COMPONENT_CALLS}` : runs} components per render (each {{> …}} it uses, and each one they use, counted every time); at most ${MAX_COMPONENT_CALLS} may.`,
    'Use fewer partials, or inline a repeated component into the one that repeats it.',
  );

/**
 * Refuses HTML (a template's, named by `field`) whose component calls run more than
 * MAX_COMPONENT_CALLS components per render, counted over the environment's components.
 */
export function checkComponentRuns(graph: ComponentGraph, calls: readonly string[], field: string): void {
  const runs = runsOf(calls, componentRuns(graph));
  if (runs > MAX_COMPONENT_CALLS) throw tooManyRuns(field, runs);
}

const refuse = (code: string, message: string, fix: string) =>
  new InvalidRequestError({ code, message, fix });

/**
 * Refuses, before `changed` is saved with its new uses, a graph in which it uses a component that
 * does not exist, takes part in a cycle, or lies on a chain of more than MAX_COMPONENT_DEPTH nested
 * components; each message names the ids involved. The rest of the graph passed this check when
 * it was saved, so only chains through `changed` can be new.
 */
export function checkComponentGraph(graph: ComponentGraph, changed: string): void {
  const unknown = [...new Set(graph.get(changed) ?? [])].filter((id) => !graph.has(id));
  if (unknown.length > 0)
    throw refuse(
      'UNKNOWN_COMPONENT',
      `Component "${changed}" uses ${unknown.map((id) => `"${id}"`).join(', ')}, which does not exist.`,
      'Create the component first (POST /components), or remove the partial.',
    );
  const cycle = cycleFrom(graph, changed);
  if (cycle !== undefined)
    throw refuse(
      'COMPONENT_CYCLE',
      `Components would use each other in a cycle: ${chain(cycle)}.`,
      'Remove one of the partials in the cycle.',
    );
  const longest = longestChainThrough(graph, changed);
  if (longest.length > MAX_COMPONENT_DEPTH)
    throw refuse(
      'COMPONENT_TOO_DEEP',
      `Components would nest ${longest.length} deep (${chain(longest)}); at most ${MAX_COMPONENT_DEPTH} may.`,
      'Flatten the chain: inline one component into another.',
    );
  // A change can add runs to every component above it, so each is counted again.
  const runs = componentRuns(graph);
  const over = [...graph.keys()].find((id) => runs(id) > MAX_COMPONENT_CALLS);
  if (over !== undefined) throw tooManyRuns(`Component "${over}"`, runs(over));
}

/** Refuses to remove a component other components still use, naming them. */
export function checkComponentUnused(graph: ComponentGraph, removed: string): void {
  const users = [...graph]
    .filter(([id, calls]) => id !== removed && calls.includes(removed))
    .map(([id]) => id);
  if (users.length > 0)
    throw refuse(
      'COMPONENT_IN_USE',
      `Component "${removed}" is used by component(s) ${users.map((id) => `"${id}"`).join(', ')}.`,
      `Remove {{> ${removed}}} from them first.`,
    );
}

/** Refuses to remove a component stored templates still use, naming them. */
export function checkComponentUnreferenced(
  removed: string,
  referencedBy: readonly ComponentReference[],
): void {
  if (referencedBy.length > 0)
    throw refuse(
      'COMPONENT_IN_USE',
      `Component "${removed}" is used by template(s) ${referencedBy
        .map((ref) => `"${ref.templateId}" (${ref.notificationId}, ${ref.channel})`)
        .join(', ')}.`,
      `Remove {{> ${removed}}} from them first (their referencedBy lists them).`,
    );
}

/** Refuses an email whose content uses components the environment does not have, naming them. */
export function unknownComponentsError(field: string, missing: readonly string[]): InvalidRequestError {
  return refuse(
    'UNKNOWN_COMPONENT',
    `${field} uses ${missing.map((id) => `"${id}"`).join(', ')}, which is not a component of this environment.`,
    'Create the component first (POST /components), or remove the partial.',
  );
}
