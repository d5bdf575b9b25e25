import { usersByIds } from '../../shared/tenants/identity-store';
import { expandById, type ExpandSpec } from '../../shared/http/expand';

/** What an API key can expand: the user it acts for. */
export const apiKeyExpand: ExpandSpec = {
  created_by_user: expandById('created_by_user_id', 'created_by_user', usersByIds),
};
