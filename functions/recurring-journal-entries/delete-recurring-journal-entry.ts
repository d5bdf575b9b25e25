import { deleteTemplate, getTemplate } from '../../shared/ledger/recurring-journal-templates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'recurring_journal_entries.delete',
  method: 'DELETE',
  path: '/v1/recurring-journal-entries/{id}',
  tag: 'General ledger',
  summary: 'Delete a recurring journal entry template',
  description: 'Stops the schedule for good. Entries it already posted stay in the ledger (their source_id still names the template).',
  scopes: ['accounting:write'],
  params: idParams,
  response: deletedObject('recurring_journal_entry_template'),
  current: (ctx, { params }) => getTemplate(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const template = await deleteTemplate(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('recurring_journal_entry_template.deleted', template);
    return { id: template.id, object: 'recurring_journal_entry_template' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
