import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  decodeNextToken,
  evaluateInsights,
  type InsightResult,
  insightsRequestDigest,
  type InsightsRequestBody,
  METRIC_SOURCE,
  MetricQueryLimitError,
  type MetricScope,
  type MetricSource,
  pageInsightResults,
  plannedSeriesRequests,
  planInsightsQuery,
  type SeriesPoint,
  type SeriesRequest,
  seriesRequestKey,
} from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * Who reads insights: an API key its own environment (`envId`), a member the environments of the
 * account (every one, or the one named with `?envId=`).
 */
export interface InsightsReader {
  readonly accountId: string;
  readonly envId?: string;
}

/**
 * `POST /insights`: checks the body, asks the metric store for each series it needs once (within
 * the reader's environments: an `EnvId` dimension narrows them, never widens), evaluates the
 * expressions, and answers one page of results. When the store fails (a memory or time limit, a
 * lost connection), the results that need its series answer InternalError; the others still answer.
 */
@Injectable()
export class QueryInsightsUseCase {
  private readonly logger = new Logger(QueryInsightsUseCase.name);

  constructor(
    @Inject(METRIC_SOURCE) private readonly metrics: MetricSource,
    private readonly accounts: AccountRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(reader: InsightsReader, body: InsightsRequestBody): Promise<InsightResult[]> {
    const plan = planInsightsQuery(body, { nowMs: this.clock.now(), accountId: reader.accountId });
    const digest = insightsRequestDigest(body, reader.accountId);
    const cursor =
      body.NextToken === undefined
        ? undefined
        : decodeNextToken(body.NextToken, digest, plan.returned.length);
    const scope = await this.scope(reader);
    // An account without environments has nothing to read; an EnvId outside the scope neither.
    const requests =
      scope.envIds.length === 0
        ? []
        : plannedSeriesRequests(plan).filter(
            (r) => r.filters.EnvId === undefined || scope.envIds.includes(r.filters.EnvId),
          );
    const answered = await this.answers(scope, requests);
    const answers = answered.ok ? answered.series : undefined;
    const series = new Map<string, readonly SeriesPoint[]>(
      requests.map((request, i) => [seriesRequestKey(request), answers?.[i] ?? []]),
    );
    const computed = evaluateInsights(
      plan,
      (request) => (answers === undefined ? undefined : (series.get(seriesRequestKey(request)) ?? [])),
      answered.ok ? undefined : answered.failure,
    );
    return pageInsightResults(computed, {
      scanBy: plan.scanBy,
      maxDatapoints: plan.maxDatapoints,
      digest,
      ...(cursor === undefined ? {} : { cursor }),
    });
  }

  /**
   * The store's answers, or why it failed (logged here, answered as InternalError): a limit the
   * caller can stay within is named; anything else is not the caller's to know.
   */
  private async answers(
    scope: MetricScope,
    requests: readonly SeriesRequest[],
  ): Promise<
    | { readonly ok: true; readonly series: SeriesPoint[][] }
    | { readonly ok: false; readonly failure?: string }
  > {
    if (requests.length === 0) return { ok: true, series: [] };
    try {
      return { ok: true, series: await this.metrics.series(scope, requests) };
    } catch (error) {
      this.logger.error(
        `the metric store failed on ${requests.length} series of account ${scope.accountId}`,
        error instanceof Error ? error.stack : String(error),
      );
      return error instanceof MetricQueryLimitError ? { ok: false, failure: error.message } : { ok: false };
    }
  }

  private async scope(reader: InsightsReader): Promise<MetricScope> {
    if (reader.envId !== undefined) return { accountId: reader.accountId, envIds: [reader.envId] };
    const environments = await this.accounts.listEnvironments(reader.accountId);
    return { accountId: reader.accountId, envIds: environments.map((e) => e.envId) };
  }
}
