import { createTag } from '../../shared/catalog/tags';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Tag, TagCreate } from '../../shared/catalog/schemas/tag';

export const route = defineRoute({
  id: 'tags.create',
  method: 'POST',
  path: '/v1/tags',
  tag: 'Tags',
  summary: 'Create a tag',
  description: 'Names are unique within the entity (case-insensitive).',
  scopes: ['settings:write'],
  body: TagCreate,
  response: Tag,
  successStatus: 201,
  errors: ['tag_name_taken'],
  handler: async (ctx, { body }) => {
    const tag = await createTag(ctx.db, ctx.entityId, body);
    await ctx.events.record('tag.created', tag);
    return tag;
  },
});

export const handler = lambdaHandler(route, idempotency);
