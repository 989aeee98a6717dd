import type { ClickHouseClient } from '@clickhouse/client';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { quote } from './columns';

/** Committed, versioned DDL files: `NNNN_name.sql`, applied once each, in order. */
export const MIGRATIONS_DIR = join(__dirname, '../../migrations');
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

function statements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*\n/)
    .map((statement) => statement.trim().replace(/;$/, ''))
    .filter((statement) => statement.length > 0);
}

export interface MigrationResult {
  readonly applied: readonly string[];
}

/** Values a migration takes from the configuration, as `${name}` in its text (e.g. `logRetentionDays`). */
export type MigrationVariables = Readonly<Record<string, number>>;

const VARIABLE = /\$\{([A-Za-z]+)\}/g;

/** A migration's text with `${database}` and its variables filled in; one it lacks is an error. */
function render(sql: string, name: string, database: string, variables: MigrationVariables): string {
  return sql.replaceAll(VARIABLE, (_, variable: string) => {
    if (variable === 'database') return database;
    const value = variables[variable];
    if (value === undefined) throw new Error(`migration ${name} needs \${${variable}}`);
    return String(value);
  });
}

/**
 * Applies the migrations a database has not seen yet and records them. Statements are idempotent
 * (IF NOT EXISTS), so two processes migrating at once converge on the same schema.
 */
export async function migrate(
  client: ClickHouseClient,
  database: string,
  dir = MIGRATIONS_DIR,
  variables: MigrationVariables = {},
): Promise<MigrationResult> {
  const db = quote(database);
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)) ENGINE = MergeTree ORDER BY version`,
  });
  const done = await client.query({
    query: `SELECT version FROM ${db}.schema_migrations`,
    format: 'JSONEachRow',
  });
  const appliedVersions = new Set((await done.json<{ version: number }>()).map((row) => Number(row.version)));
  const files = (await readdir(dir)).filter((name) => MIGRATION_FILE.test(name)).sort();
  const applied: string[] = [];
  for (const name of files) {
    const version = Number(MIGRATION_FILE.exec(name)?.[1]);
    if (appliedVersions.has(version)) continue;
    const sql = await readFile(join(dir, name), 'utf8');
    for (const statement of statements(sql))
      await client.command({ query: render(statement, name, db, variables) });
    await client.insert({
      table: `${database}.schema_migrations`,
      values: [{ version, name }],
      format: 'JSONEachRow',
    });
    applied.push(name);
  }
  return { applied };
}
