import { ownedResourceExists } from './owned-resources';
import { tagsOf } from '../../shared/catalog/tags';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { tagResourceParams, TagList } from '../../shared/catalog/schemas/tag';

export const route = defineRoute({
  id: 'tags.resource.list',
  method: 'GET',
  path: '/v1/tags/{resourceType}/{resourceId}',
  tag: 'Tags',
  summary: 'List the tags of a resource',
  description:
    'Response {data: [tag]}, ordered by name; an empty array when none. account, product and vendor resources must exist in the entity (404 otherwise); resource types served by later versions answer an empty array.',
  scopes: ['settings:read'],
  params: tagResourceParams,
  response: TagList,
  handler: (ctx, { params }) => tagsOf(ctx.db, ctx.entityId, params.resourceType, params.resourceId, ownedResourceExists(ctx.db, ctx.entityId)),
});

export const handler = lambdaHandler(route);
