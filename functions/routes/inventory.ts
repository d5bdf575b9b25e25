/**
 * Route table entries: locations, stock balances and transactions (adjustments, receipts,
 * transfers, kit builds), kit availability, the reorder report and the inventory valuation
 * (shared/inventory). Keys are the handler modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as createLocation from '../locations/create-location';
import * as deleteLocation from '../locations/delete-location';
import * as getLocation from '../locations/get-location';
import * as listLocations from '../locations/list-locations';
import * as updateLocation from '../locations/update-location';
import * as createInventoryAdjustment from '../inventory/create-adjustment';
import * as createInventoryReceipt from '../inventory/create-receipt';
import * as createInventoryTransfer from '../inventory/create-transfer';
import * as getInventoryBalance from '../inventory/get-balance';
import * as getInventoryTransaction from '../inventory/get-transaction';
import * as listInventoryBalances from '../inventory/list-balances';
import * as listInventoryTransactions from '../inventory/list-transactions';
import * as createKitBuild from '../kits/create-build';
import * as getKitAvailability from '../kits/get-availability';
import * as getReorderReport from '../purchasing/get-reorder-report';
import * as getInventoryValuation from '../reconciliation/get-inventory-valuation';

export const INVENTORY_ROUTES = {
  'locations/create-location': createLocation,
  'locations/delete-location': deleteLocation,
  'locations/get-location': getLocation,
  'locations/list-locations': listLocations,
  'locations/update-location': updateLocation,
  'inventory/create-adjustment': createInventoryAdjustment,
  'inventory/create-receipt': createInventoryReceipt,
  'inventory/create-transfer': createInventoryTransfer,
  'inventory/get-balance': getInventoryBalance,
  'inventory/get-transaction': getInventoryTransaction,
  'inventory/list-balances': listInventoryBalances,
  'inventory/list-transactions': listInventoryTransactions,
  'kits/create-build': createKitBuild,
  'kits/get-availability': getKitAvailability,
  'purchasing/get-reorder-report': getReorderReport,
  'reconciliation/get-inventory-valuation': getInventoryValuation,
} satisfies Record<string, RouteModule>;
