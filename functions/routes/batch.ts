/**
 * Route table entry: POST /v1/batch, which runs other routes of the table (see ../batch/run-batch.ts).
 * Keys are the handler modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as runBatch from '../batch/run-batch';

export const BATCH_ROUTES = {
  'batch/run-batch': runBatch,
} satisfies Record<string, RouteModule>;
