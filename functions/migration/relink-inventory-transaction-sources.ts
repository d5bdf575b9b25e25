import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { relinkSources } from '../../shared/migration/relink-sources';
import { RelinkRequest, RelinkResult } from '../../shared/migration/schemas/relink';
import { entityScopedParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.relink_inventory_transaction_sources',
  method: 'POST',
  path: '/v1/entities/{entity_id}/migration/inventory-transactions/relink-source',
  tag: 'Migration',
  summary: 'Relink migrated inventory transactions to their orders',
  description: [
    'A pass after orders and invoices are migrated: sets reference_id of the migrated inventory transactions (reference_type source_migration, matched by',
    'their source-system id in transaction_id) to the order given. Native transactions are never matched. Only reference_id changes: no quantity, cost,',
    'balance or cost layer. A transaction that already carries the order answers relinked false, so re-running is safe.',
    'An external id that matches several migrated transactions (the legs of a transfer, several lines of one source document) relinks all of them, one result each.',
    'An external id sent twice in one request is rejected at every occurrence (relink_duplicate_external_id), since the two could name different orders.',
    'A source_id that is not an order of the entity, a uuid or not, rejects its item (relink_source_not_found) and nothing is written for it; the other items proceed.',
    'Up to 10,000 items per request, applied in one statement (all or nothing on a database failure). An Idempotency-Key retry within 24 hours returns the stored result.',
  ].join(' '),
  scopes: ['migration:write'],
  params: entityScopedParams,
  body: RelinkRequest,
  response: RelinkResult,
  handler: (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    return relinkSources(ctx.db, ctx.entityId, body);
  },
});

export const handler = lambdaHandler(route, idempotency);
