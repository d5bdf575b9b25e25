import { getTemplate, updateTemplate } from '../../shared/ledger/recurring-journal-templates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { RecurringJournalTemplate, RecurringJournalTemplateUpdate } from '../../shared/ledger/schemas/recurring-journal-entry';

export const route = defineRoute({
  id: 'recurring_journal_entries.update',
  method: 'PATCH',
  path: '/v1/recurring-journal-entries/{id}',
  tag: 'General ledger',
  summary: 'Update a recurring journal entry template',
  description:
    'Send only the fields to change. next_run_date skips or delays occurrences and re-anchors the schedule there (it must be after last_run_date); a new start_date or frequency recomputes next_run_date as the first occurrence after last_run_date. Reactivating a template catches up the occurrences it missed unless next_run_date is moved too.',
  scopes: ['accounting:write'],
  params: idParams,
  body: RecurringJournalTemplateUpdate,
  response: RecurringJournalTemplate,
  errors: ['journal_entry_unbalanced', 'gl_account_inactive', 'gl_account_control'],
  current: (ctx, { params }) => getTemplate(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const { template, previous } = await updateTemplate(ctx.db, ctx.entityId, params.id, body);
    if (Object.keys(previous).length) await ctx.events.record('recurring_journal_entry_template.updated', template, previous);
    return template;
  },
});

export const handler = lambdaHandler(route, idempotency);
