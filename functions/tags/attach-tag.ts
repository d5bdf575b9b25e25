import { ownedResourceExists } from './owned-resources';
import { attachTag } from '../../shared/catalog/tags';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { TagAttach, tagResourceParams, TagList } from '../../shared/catalog/schemas/tag';

export const route = defineRoute({
  id: 'tags.resource.attach',
  method: 'POST',
  path: '/v1/tags/{resourceType}/{resourceId}',
  tag: 'Tags',
  summary: 'Attach a tag to a resource',
  description:
    'Returns the resource tags after the change as {data: [tag]}; attaching a tag already attached changes nothing. The resource must exist in the entity (404): order means a quote or sales order, invoice, return and purchase_order an order of that document_type (any other document, or a deleted one, is a 404). contact and package resources are not served by this version: 422 resource_type_unavailable.',
  scopes: ['settings:write'],
  params: tagResourceParams,
  body: TagAttach,
  response: TagList,
  errors: ['resource_type_unavailable'],
  handler: async (ctx, { params, body }) => {
    const { tag, attached, tags } = await attachTag(
      ctx.db,
      ctx.entityId,
      params.resourceType,
      params.resourceId,
      body.tag_id,
      ownedResourceExists(ctx.db, ctx.entityId),
    );
    if (attached) await ctx.events.record('tag.attached', { ...tag, resource_type: params.resourceType, resource_id: params.resourceId });
    return tags;
  },
});

export const handler = lambdaHandler(route, idempotency);
