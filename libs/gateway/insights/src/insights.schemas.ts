import {
  INSIGHT_METRICS,
  INSIGHT_NAMESPACE,
  INSIGHT_STATUS_CODES,
  INSIGHT_UNITS,
  InsightLimits,
  type InsightsRequestBody,
  MAX_EXPRESSION_LENGTH,
  PERCENTILE_FORMAT,
  SCAN_ORDERS,
} from '@notify/domain';
import { namedSchema } from '@notify/gateway-openapi';
import { z } from 'zod';

/*
 * The `POST /insights` body as the pingram client sends it: types and sizes are checked here, as
 * the body is parsed; every other rule (ids, periods, statistics, dimensions, expressions) is the
 * domain's, which names the field it refuses.
 */
const name = z.string().max(InsightLimits.name);

const dimensionSchema = z.object({
  Name: name.optional(),
  Value: z.string().max(InsightLimits.dimensionValue).optional(),
});

const metricSchema = z.object({
  Namespace: name.optional().describe(`Always ${INSIGHT_NAMESPACE}`),
  MetricName: name.optional().describe(INSIGHT_METRICS.join(', ')),
  Dimensions: z.array(dimensionSchema).max(InsightLimits.dimensions).optional(),
});

const metricStatSchema = z.object({
  Metric: metricSchema.optional(),
  Period: z
    .number()
    .optional()
    .describe('Seconds: 1, 5, 10, 20, 30, 60 or a multiple of 60; at most 31536000 (365 days)'),
  Stat: name
    .optional()
    .describe(
      `Sum, SampleCount, Average, Minimum, Maximum or a percentile, ${PERCENTILE_FORMAT} (all but Sum and SampleCount: Sent and Delivered only)`,
    ),
  Unit: name.optional().describe(INSIGHT_UNITS.join(', ')),
});

const querySchema = z.object({
  Id: name.optional(),
  MetricStat: metricStatSchema.optional(),
  Expression: z.string().max(MAX_EXPRESSION_LENGTH).optional(),
  Label: z.string().max(InsightLimits.label).optional(),
  ReturnData: z.boolean().optional(),
  Period: z.number().optional(),
  AccountId: name.optional(),
});

export const insightsRequestSchema = z.object({
  StartTime: name.describe('ISO 8601 date-time with a zone, from 1970-01-01 to 9999-12-31'),
  EndTime: name.describe('ISO 8601 date-time with a zone, after StartTime, at the latest 9999-12-31'),
  MetricDataQueries: z.array(querySchema).max(InsightLimits.queries),
  NextToken: z.string().max(InsightLimits.nextToken).optional(),
  ScanBy: name.optional().describe(SCAN_ORDERS.join(' or ')),
  MaxDatapoints: z.number().optional(),
  LabelOptions: z.object({ Timezone: name.optional().describe('+HHMM or -HHMM') }).optional(),
}) satisfies z.ZodType<InsightsRequestBody>;

export const insightResultSchema = z.object({
  Id: z.string(),
  Label: z.string(),
  Timestamps: z.array(z.string()).describe('ISO 8601 date-times, in ScanBy order'),
  Values: z.array(z.number()),
  StatusCode: z.enum(INSIGHT_STATUS_CODES),
  Messages: z.array(z.object({ Code: z.string(), Value: z.string() })),
});

// Named in the OpenAPI document as the pingram client names the shapes.
namedSchema('IngishtsPostRequest', insightsRequestSchema);
namedSchema('IngishtsPostRequestMetricDataQueriesInner', querySchema);
namedSchema('GetMetricsResponseInner', insightResultSchema);
