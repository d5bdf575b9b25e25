/**
 * Route table entries: cutover tooling (freezes, snapshots, import batches and source relinking)
 * (shared/migration). Keys are the handler modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as relinkInventoryTransactionSources from '../migration/relink-inventory-transaction-sources';
import * as freezeCutover from '../migration/freeze-cutover';
import * as unfreezeCutover from '../migration/unfreeze-cutover';
import * as listCutoverLog from '../migration/list-cutover-log';
import * as createCutoverSnapshot from '../migration/create-cutover-snapshot';
import * as getCutoverSnapshot from '../migration/get-cutover-snapshot';
import * as listCutoverSnapshots from '../migration/list-cutover-snapshots';
import * as createMigrationBatch from '../migration/create-migration-batch';
import * as listMigrationBatches from '../migration/list-migration-batches';
import * as getMigrationBatch from '../migration/get-migration-batch';
import * as completeMigrationBatch from '../migration/complete-migration-batch';
import * as rollbackMigrationBatch from '../migration/rollback-migration-batch';

export const MIGRATION_ROUTES = {
  'migration/relink-inventory-transaction-sources': relinkInventoryTransactionSources,
  'migration/freeze-cutover': freezeCutover,
  'migration/unfreeze-cutover': unfreezeCutover,
  'migration/list-cutover-log': listCutoverLog,
  'migration/create-cutover-snapshot': createCutoverSnapshot,
  'migration/get-cutover-snapshot': getCutoverSnapshot,
  'migration/list-cutover-snapshots': listCutoverSnapshots,
  'migration/create-migration-batch': createMigrationBatch,
  'migration/list-migration-batches': listMigrationBatches,
  'migration/get-migration-batch': getMigrationBatch,
  'migration/complete-migration-batch': completeMigrationBatch,
  'migration/rollback-migration-batch': rollbackMigrationBatch,
} satisfies Record<string, RouteModule>;
