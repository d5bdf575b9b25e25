import { getTemplate } from '../../shared/ledger/recurring-journal-templates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { RecurringJournalTemplate } from '../../shared/ledger/schemas/recurring-journal-entry';

export const route = defineRoute({
  id: 'recurring_journal_entries.get',
  method: 'GET',
  path: '/v1/recurring-journal-entries/{id}',
  tag: 'General ledger',
  summary: 'Retrieve a recurring journal entry template',
  scopes: ['accounting:read'],
  params: idParams,
  response: RecurringJournalTemplate,
  handler: (ctx, { params }) => getTemplate(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
