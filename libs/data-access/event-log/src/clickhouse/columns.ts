export const quote = (identifier: string) => `\`${identifier.replace(/`/g, '``')}\``;

/**
 * The folded fields of a record: field name → (event time, event id, value as text). `maxMap`
 * keeps, per field, the greatest tuple, i.e. the value of the latest event that set it (ties
 * broken by the time-ordered event id). Only fields an event sets enter the map, so the fold costs
 * what an event carries, not the size of the catalog.
 */
export const FOLDED_FIELDS_TYPE =
  "SimpleAggregateFunction(maxMap, Map(String, Tuple(DateTime64(3, 'UTC'), String, String)))";

/** The fields an event sets, as the `delivery_events` map holds them: name → value as text. */
export const EVENT_FIELDS_TYPE = 'Map(LowCardinality(String), String)';
