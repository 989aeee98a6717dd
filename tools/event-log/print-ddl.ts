// Prints the delivery-log DDL for the current field catalog, the starting point of a migration:
//   node -r ./tools/testing/register-ts.cjs tools/event-log/print-ddl.ts > libs/data-access/event-log/migrations/NNNN_name.sql
// A later migration that adds fields edits the output into ALTER TABLE … ADD COLUMN statements;
// the event-log contract suite fails until the migrated schema matches the catalog again.
import { deliveryLogDdl } from '../../libs/data-access/event-log/src/clickhouse/columns';

process.stdout.write(deliveryLogDdl());
