import { createTemplate } from '../../shared/ledger/recurring-journal-templates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { RecurringJournalTemplate, RecurringJournalTemplateCreate } from '../../shared/ledger/schemas/recurring-journal-entry';

export const route = defineRoute({
  id: 'recurring_journal_entries.create',
  method: 'POST',
  path: '/v1/recurring-journal-entries',
  tag: 'General ledger',
  summary: 'Create a recurring journal entry template',
  description:
    'A balanced set of lines posted on a schedule (daily, weekly, biweekly, monthly, quarterly, semiannually, yearly) from start_date, either posted (auto_post, the default) or saved as a draft for review. The runner posts every occurrence due by its run date exactly once, catching up missed ones. Month-end anchors stay at month ends (Jan 31 → Feb 28/29 → Mar 31).',
  scopes: ['accounting:write'],
  body: RecurringJournalTemplateCreate,
  response: RecurringJournalTemplate,
  successStatus: 201,
  errors: ['journal_entry_unbalanced', 'gl_account_inactive', 'gl_account_control'],
  handler: async (ctx, { body }) => {
    const template = await createTemplate(ctx.db, { entityId: ctx.entityId, userId: ctx.userId, livemode: ctx.mode === 'live' }, body);
    await ctx.events.record('recurring_journal_entry_template.created', template);
    return template;
  },
});

export const handler = lambdaHandler(route, idempotency);
