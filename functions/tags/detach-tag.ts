import { ownedResourceExists } from './owned-resources';
import { param, pathParams } from '../../shared/schemas/parameters';
import { detachTag, tagsOf } from '../../shared/catalog/tags';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { tagResourceFields, TagList } from '../../shared/catalog/schemas/tag';

const params = pathParams({ ...tagResourceFields, tagId: param.id('The tag to detach.') });

export const route = defineRoute({
  id: 'tags.resource.detach',
  method: 'DELETE',
  path: '/v1/tags/{resourceType}/{resourceId}/{tagId}',
  tag: 'Tags',
  summary: 'Detach a tag from a resource',
  description:
    'Returns the remaining tags of the resource as {data: [tag]}. A tag that is not attached is a 404 on tagId; the resource must exist as on attach (contact and package: 422 resource_type_unavailable).',
  scopes: ['settings:write'],
  params,
  response: TagList,
  errors: ['resource_type_unavailable'],
  current: (ctx, { params }) => tagsOf(ctx.db, ctx.entityId, params.resourceType, params.resourceId, ownedResourceExists(ctx.db, ctx.entityId)),
  handler: async (ctx, { params }) => {
    const tags = await detachTag(ctx.db, ctx.entityId, params.resourceType, params.resourceId, params.tagId, ownedResourceExists(ctx.db, ctx.entityId));
    await ctx.events.record('tag.detached', { id: params.tagId, resource_type: params.resourceType, resource_id: params.resourceId });
    return tags;
  },
});

export const handler = lambdaHandler(route, idempotency);
