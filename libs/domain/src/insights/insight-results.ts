import { createHash } from 'node:crypto';
import { canonicalJson } from '../sends/canonical-json';
import { type ExpressionNode, referencedIds } from './expression';
import { evaluateExpression, extremes, type Series } from './expression-eval';
import { type InsightsPlan, type InsightsRequestBody, invalidField, seriesRequestKey } from './insight-query';
import type { SeriesPoint, SeriesRequest } from './metric-source';

export const INSIGHT_STATUS_CODES = ['Complete', 'PartialData', 'Forbidden', 'InternalError'] as const;
export type InsightStatusCode = (typeof INSIGHT_STATUS_CODES)[number];

export interface InsightMessage {
  readonly Code: string;
  readonly Value: string;
}

/** One result of `POST /insights`, in the pingram client's shape (timestamps as ISO 8601 text). */
export interface InsightResult {
  readonly Id: string;
  readonly Label: string;
  readonly Timestamps: string[];
  readonly Values: number[];
  readonly StatusCode: InsightStatusCode;
  readonly Messages: InsightMessage[];
}

/** A query's whole answer before paging: its points ascending by time. */
export interface ComputedResult {
  readonly id: string;
  readonly label: string;
  readonly points: readonly (readonly [number, number])[];
  readonly forbidden: boolean;
  /** Set when the metric store failed on a series it uses: no data, StatusCode InternalError. */
  readonly failed?: true;
  readonly messages: readonly InsightMessage[];
}

/** At most this many messages per result (besides the NextToken one), each said once. */
export const MAX_MESSAGES_PER_RESULT = 10;

/** Why the store failed, when it says (a limit the caller can stay within); otherwise try later. */
const storeFailed = (
  reason = 'The metric store could not answer for this query; try again later.',
): InsightMessage => ({
  Code: 'InternalError',
  Value: reason,
});

/** A query evaluated: its series, and why it may have none. */
interface Evaluated {
  readonly series: Series;
  readonly forbidden: boolean;
  readonly failed: boolean;
  readonly messages: InsightMessage[];
}

/** Adds the messages not already there, up to MAX_MESSAGES_PER_RESULT. */
function addMessages(to: InsightMessage[], seen: Set<string>, messages: readonly InsightMessage[]): void {
  for (const message of messages) {
    if (to.length >= MAX_MESSAGES_PER_RESULT) return;
    const key = `${message.Code}\n${message.Value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    to.push(message);
  }
}

/**
 * Evaluates a plan over the series the metric store answered (`series` gives a metric query's, or
 * undefined where the store failed), expressions in dependency order. A query whose period is too
 * fine for data as old as StartTime, or whose AccountId is another account's, has no points and
 * says why in its messages; so does one whose series the store failed on, and every expression
 * using it. An expression carries the messages of the queries it refers to, each once, at most
 * MAX_MESSAGES_PER_RESULT.
 */
export function evaluateInsights(
  plan: InsightsPlan,
  series: (request: SeriesRequest) => readonly SeriesPoint[] | undefined,
  failure?: string,
): ComputedResult[] {
  const evaluated = new Map<string, Evaluated>();
  const needed = neededQueries(plan);
  for (const query of plan.queries) {
    if (!needed.has(query.id)) continue;
    const messages: InsightMessage[] = [];
    const seen = new Set<string>();
    if (query.periodTooFine !== undefined)
      addMessages(messages, seen, [{ Code: 'PeriodTooFine', Value: query.periodTooFine }]);
    // A stand-in with no points has the query's own period, so that FILL over it fills no finer.
    let result: Series = { periodSeconds: query.periodSeconds, points: new Map() };
    let failed = false;
    if (query.kind === 'metric') {
      const answer = query.forbidden || query.periodTooFine !== undefined ? [] : series(query.request);
      if (query.forbidden)
        addMessages(messages, seen, [
          { Code: 'Forbidden', Value: 'AccountId names another account than the caller’s.' },
        ]);
      failed = answer === undefined;
      if (answer === undefined) addMessages(messages, seen, [storeFailed(failure)]);
      else if (answer.length > 0)
        result = {
          periodSeconds: query.periodSeconds,
          points: new Map(answer.map((p) => [p.timestampMs, p.value])),
        };
    } else {
      const refs = referencedResults(query.expression, evaluated);
      for (const ref of refs) addMessages(messages, seen, ref.messages);
      failed = refs.some((ref) => ref.failed);
      if (failed) addMessages(messages, seen, [storeFailed(failure)]);
      else if (query.periodTooFine === undefined)
        result = evaluateExpression(
          query.expression,
          {
            series: (id) => (evaluated.get(id) as Evaluated).series,
            startMs: plan.startMs,
            endMs: plan.endMs,
          },
          query.periodSeconds,
        );
    }
    evaluated.set(query.id, {
      series: result,
      forbidden: query.kind === 'metric' && query.forbidden,
      failed,
      messages,
    });
  }
  const labels = new Map(plan.queries.map((q) => [q.id, q.label]));
  return plan.returned.map((id) => {
    const { series: result, forbidden, failed, messages } = evaluated.get(id) as Evaluated;
    const points = [...result.points].sort(([a], [b]) => a - b);
    return {
      id,
      label: renderLabel(labels.get(id) as string, points, plan.timezoneOffsetMinutes),
      points,
      forbidden,
      ...(failed ? { failed: true as const } : {}),
      messages,
    };
  });
}

/** The returned queries and, through their expressions, every query they use. */
function neededQueries(plan: InsightsPlan): Set<string> {
  const byId = new Map(plan.queries.map((q) => [q.id, q]));
  const needed = new Set<string>();
  const visit = (id: string): void => {
    const query = byId.get(id);
    if (query === undefined || needed.has(id)) return;
    needed.add(id);
    if (query.kind === 'expression') referencedIds(query.expression).forEach(visit);
  };
  plan.returned.forEach(visit);
  return needed;
}

/**
 * The series a plan needs from the metric store, each once: those of the metric queries that are
 * returned or used by a returned expression, and may return data (their account, a period fine
 * enough for their age).
 */
export function plannedSeriesRequests(plan: InsightsPlan): SeriesRequest[] {
  const needed = neededQueries(plan);
  const requests = new Map<string, SeriesRequest>();
  for (const query of plan.queries)
    if (
      query.kind === 'metric' &&
      needed.has(query.id) &&
      !query.forbidden &&
      query.periodTooFine === undefined
    )
      requests.set(seriesRequestKey(query.request), query.request);
  return [...requests.values()];
}

function referencedResults<T>(node: ExpressionNode, evaluated: ReadonlyMap<string, T>): T[] {
  return referencedIds(node).flatMap((id) => {
    const found = evaluated.get(id);
    return found === undefined ? [] : [found];
  });
}

/** `2026-01-05T10:00:00+01:00`: an instant as the wall time at a fixed offset. */
function formatAtOffset(ms: number, offsetMinutes: number): string {
  const wall = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${wall}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const formatNumber = (value: number) => String(Number(value.toFixed(3)));

/**
 * Fills a label's dynamic parts from the whole result (every page alike): `${SUM}`, `${AVG}`,
 * `${MIN}`, `${MAX}`, `${FIRST}`, `${LAST}` (values) and `${FIRST_TIME}`, `${LAST_TIME}` (times, at
 * the offset of LabelOptions.Timezone). Others stay as written; an empty result fills nothing.
 */
export function renderLabel(
  label: string,
  points: readonly (readonly [number, number])[],
  offsetMinutes: number,
): string {
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined) return label;
  const values = points.map(([, v]) => v);
  const sum = values.reduce((a, b) => a + b, 0);
  const { min, max } = extremes(values);
  const parts: Record<string, string> = {
    SUM: formatNumber(sum),
    AVG: formatNumber(sum / values.length),
    MIN: formatNumber(min),
    MAX: formatNumber(max),
    FIRST: formatNumber(first[1]),
    LAST: formatNumber(last[1]),
    FIRST_TIME: formatAtOffset(first[0], offsetMinutes),
    LAST_TIME: formatAtOffset(last[0], offsetMinutes),
  };
  return label.replace(/\$\{([A-Z_]{1,20})\}/g, (whole, name: string) => parts[name] ?? whole);
}

/** Where a page starts: result `r` (among those returned), after timestamp `t` when set. */
interface Cursor {
  readonly r: number;
  readonly t?: number;
}

/** A fingerprint of the request (its body without NextToken, and the account): a token is only good for it. */
export function insightsRequestDigest(body: InsightsRequestBody, accountId: string): string {
  const { NextToken: _token, ...rest } = body;
  return createHash('sha256')
    .update(canonicalJson({ accountId, body: rest }))
    .digest('base64url')
    .slice(0, 22);
}

function encodeToken(digest: string, cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ d: digest, ...cursor })).toString('base64url');
}

/**
 * Reads a NextToken. It is opaque to clients and bound to the request it came from: a token of
 * another body or account, or one that does not decode, is a 400 naming NextToken.
 */
export function decodeNextToken(token: string, digest: string, results: number): Cursor {
  const refused = invalidField(
    'NextToken',
    'not a token this request answered with',
    'Send the same body as the request whose result carried the token, with NextToken set to it.',
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  if (typeof parsed !== 'object' || parsed === null) throw refused;
  const { d, r, t } = parsed as Record<string, unknown>;
  if (d !== digest || !Number.isInteger(r) || (r as number) < 0 || (r as number) >= results) throw refused;
  if (t !== undefined && !Number.isSafeInteger(t)) throw refused;
  return t === undefined ? { r: r as number } : { r: r as number, t: t as number };
}

/**
 * One page of results: every returned query in request order, points ordered by `scanBy`, at
 * most `maxDatapoints` points in all. Where the page ends inside a result, that result and every
 * later one with points left answer PartialData with a `NextToken` message; the same request
 * with that token continues exactly there. Results finished on earlier pages come back empty.
 */
export function pageInsightResults(
  computed: readonly ComputedResult[],
  page: {
    readonly scanBy: InsightsPlan['scanBy'];
    readonly maxDatapoints: number;
    readonly digest: string;
    readonly cursor?: Cursor;
  },
): InsightResult[] {
  let budget = page.maxDatapoints;
  let cut: string | undefined;
  return computed.map((result, r) => {
    const base = { Id: result.id, Label: result.label };
    if (result.forbidden || result.failed)
      return {
        ...base,
        Timestamps: [],
        Values: [],
        StatusCode: result.forbidden ? 'Forbidden' : 'InternalError',
        Messages: [...result.messages],
      };
    const ascending = page.scanBy === 'TimestampAscending';
    const ordered = ascending ? result.points : [...result.points].reverse();
    const after = page.cursor?.r === r ? page.cursor.t : undefined;
    const remaining =
      page.cursor !== undefined && r < page.cursor.r
        ? []
        : after === undefined
          ? ordered
          : ordered.filter(([t]) => (ascending ? t > after : t < after));
    const taken = cut === undefined ? remaining.slice(0, budget) : [];
    budget -= taken.length;
    if (cut === undefined && taken.length < remaining.length) {
      const last = taken[taken.length - 1]?.[0] ?? after;
      cut = encodeToken(page.digest, last === undefined ? { r } : { r, t: last });
    }
    const partial = taken.length < remaining.length;
    return {
      ...base,
      Timestamps: taken.map(([t]) => new Date(t).toISOString()),
      Values: taken.map(([, v]) => v),
      StatusCode: partial ? 'PartialData' : 'Complete',
      Messages: partial
        ? [...result.messages, { Code: 'NextToken', Value: cut as string }]
        : [...result.messages],
    };
  });
}
