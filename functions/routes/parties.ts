/**
 * Route table entries: customer accounts and vendors (shared/parties). Keys are the handler
 * modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as archiveAccount from '../accounts/archive-account';
import * as createAccount from '../accounts/create-account';
import * as getAccount from '../accounts/get-account';
import * as listAccounts from '../accounts/list-accounts';
import * as unarchiveAccount from '../accounts/unarchive-account';
import * as updateAccount from '../accounts/update-account';
import * as archiveVendor from '../vendors/archive-vendor';
import * as createVendor from '../vendors/create-vendor';
import * as getVendor from '../vendors/get-vendor';
import * as listVendors from '../vendors/list-vendors';
import * as unarchiveVendor from '../vendors/unarchive-vendor';
import * as updateVendor from '../vendors/update-vendor';

export const PARTY_ROUTES = {
  'accounts/archive-account': archiveAccount,
  'accounts/create-account': createAccount,
  'accounts/get-account': getAccount,
  'accounts/list-accounts': listAccounts,
  'accounts/unarchive-account': unarchiveAccount,
  'accounts/update-account': updateAccount,
  'vendors/archive-vendor': archiveVendor,
  'vendors/create-vendor': createVendor,
  'vendors/get-vendor': getVendor,
  'vendors/list-vendors': listVendors,
  'vendors/unarchive-vendor': unarchiveVendor,
  'vendors/update-vendor': updateVendor,
} satisfies Record<string, RouteModule>;
