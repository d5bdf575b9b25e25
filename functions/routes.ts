/**
 * The route table: every endpoint of the API, once. Keys are the handler modules' paths under
 * functions/ (a test checks that each key is the module's real path): CDK bundles each key as
 * one Lambda function, the local gateway dispatches by the routes, and the OpenAPI document is
 * generated from them.
 */
import type { Route } from '../shared/http/route';
import * as createApiKey from './api-keys/create-api-key';
import * as getApiKey from './api-keys/get-api-key';
import * as listApiKeys from './api-keys/list-api-keys';
import * as revokeApiKey from './api-keys/revoke-api-key';
import * as rollApiKey from './api-keys/roll-api-key';
import * as updateApiKey from './api-keys/update-api-key';
import * as listEvents from './events/list-events';
import * as getEvent from './events/get-event';
import * as resendEvent from './events/resend-event';
import * as listWebhookDeliveries from './webhook-endpoints/list-webhook-deliveries';
import * as testWebhookEndpoint from './webhook-endpoints/test-webhook-endpoint';
import * as createWebhookEndpoint from './webhook-endpoints/create-webhook-endpoint';
import * as listWebhookEndpoints from './webhook-endpoints/list-webhook-endpoints';
import * as getWebhookEndpoint from './webhook-endpoints/get-webhook-endpoint';
import * as updateWebhookEndpoint from './webhook-endpoints/update-webhook-endpoint';
import * as deleteWebhookEndpoint from './webhook-endpoints/delete-webhook-endpoint';
import * as disableWebhookEndpoint from './webhook-endpoints/disable-webhook-endpoint';
import * as enableWebhookEndpoint from './webhook-endpoints/enable-webhook-endpoint';
import * as rollWebhookEndpointSecret from './webhook-endpoints/roll-webhook-endpoint-secret';
import * as relinkInventoryTransactionSources from './migration/relink-inventory-transaction-sources';
import * as freezeCutover from './migration/freeze-cutover';
import * as unfreezeCutover from './migration/unfreeze-cutover';
import * as listCutoverLog from './migration/list-cutover-log';
import * as createCutoverSnapshot from './migration/create-cutover-snapshot';
import * as getCutoverSnapshot from './migration/get-cutover-snapshot';
import * as listCutoverSnapshots from './migration/list-cutover-snapshots';
import * as createMigrationBatch from './migration/create-migration-batch';
import * as listMigrationBatches from './migration/list-migration-batches';
import * as getMigrationBatch from './migration/get-migration-batch';
import * as completeMigrationBatch from './migration/complete-migration-batch';
import * as rollbackMigrationBatch from './migration/rollback-migration-batch';
import * as createLocation from './locations/create-location';
import * as deleteLocation from './locations/delete-location';
import * as getLocation from './locations/get-location';
import * as listLocations from './locations/list-locations';
import * as updateLocation from './locations/update-location';
import * as createManufacturer from './manufacturers/create-manufacturer';
import * as deleteManufacturer from './manufacturers/delete-manufacturer';
import * as getManufacturer from './manufacturers/get-manufacturer';
import * as listManufacturers from './manufacturers/list-manufacturers';
import * as updateManufacturer from './manufacturers/update-manufacturer';
import * as createGlAccount from './gl-accounts/create-gl-account';
import * as deleteGlAccount from './gl-accounts/delete-gl-account';
import * as getGlAccount from './gl-accounts/get-gl-account';
import * as listGlAccounts from './gl-accounts/list-gl-accounts';
import * as updateGlAccount from './gl-accounts/update-gl-account';
import * as createJournalEntry from './journal-entries/create-journal-entry';
import * as deleteJournalEntry from './journal-entries/delete-journal-entry';
import * as getJournalEntry from './journal-entries/get-journal-entry';
import * as listJournalEntries from './journal-entries/list-journal-entries';
import * as postJournalEntry from './journal-entries/post-journal-entry';
import * as reverseJournalEntry from './journal-entries/reverse-journal-entry';
import * as updateJournalEntry from './journal-entries/update-journal-entry';
import * as approvePeriodClose from './periods/approve-period-close';
import * as createFiscalYear from './periods/create-fiscal-year';
import * as createPeriod from './periods/create-period';
import * as getPeriod from './periods/get-period';
import * as listPeriods from './periods/list-periods';
import * as reopenPeriod from './periods/reopen-period';
import * as requestPeriodClose from './periods/request-period-close';
import * as getCashBalance from './reconciliation/get-cash-balance';
import * as getApAging from './reconciliation/get-ap-aging';
import * as getTrialBalance from './reconciliation/get-trial-balance';
import * as createRecurringJournalEntry from './recurring-journal-entries/create-recurring-journal-entry';
import * as deleteRecurringJournalEntry from './recurring-journal-entries/delete-recurring-journal-entry';
import * as getRecurringJournalEntry from './recurring-journal-entries/get-recurring-journal-entry';
import * as listRecurringJournalEntries from './recurring-journal-entries/list-recurring-journal-entries';
import * as updateRecurringJournalEntry from './recurring-journal-entries/update-recurring-journal-entry';
import * as getOpenApi from './openapi/get-openapi';
import * as getDocs from './docs/get-docs';
import * as getDocsScript from './docs/get-docs-script';
import * as createUnitOfMeasure from './units-of-measure/create-unit-of-measure';
import * as deleteUnitOfMeasure from './units-of-measure/delete-unit-of-measure';
import * as getUnitOfMeasure from './units-of-measure/get-unit-of-measure';
import * as listUnitsOfMeasure from './units-of-measure/list-units-of-measure';
import * as updateUnitOfMeasure from './units-of-measure/update-unit-of-measure';
import * as createProduct from './products/create-product';
import * as deleteProduct from './products/delete-product';
import * as getProduct from './products/get-product';
import * as listProducts from './products/list-products';
import * as updateProduct from './products/update-product';
import * as archiveAccount from './accounts/archive-account';
import * as createAccount from './accounts/create-account';
import * as getAccount from './accounts/get-account';
import * as listAccounts from './accounts/list-accounts';
import * as unarchiveAccount from './accounts/unarchive-account';
import * as updateAccount from './accounts/update-account';
import * as archiveVendor from './vendors/archive-vendor';
import * as createVendor from './vendors/create-vendor';
import * as getVendor from './vendors/get-vendor';
import * as listVendors from './vendors/list-vendors';
import * as unarchiveVendor from './vendors/unarchive-vendor';
import * as updateVendor from './vendors/update-vendor';
import * as createInventoryAdjustment from './inventory/create-adjustment';
import * as createInventoryReceipt from './inventory/create-receipt';
import * as createInventoryTransfer from './inventory/create-transfer';
import * as getInventoryBalance from './inventory/get-balance';
import * as getInventoryTransaction from './inventory/get-transaction';
import * as listInventoryBalances from './inventory/list-balances';
import * as listInventoryTransactions from './inventory/list-transactions';
import * as createKitBuild from './kits/create-build';
import * as createKit from './kits/create-kit';
import * as getKitAvailability from './kits/get-availability';
import * as getKit from './kits/get-kit';
import * as listKitComponents from './products/list-kit-components';
import * as listKits from './kits/list-kits';
import * as createKitComponent from './kits/create-component';
import * as deleteKitComponent from './kits/delete-component';
import * as getKitComponent from './kits/get-component';
import * as listKitBundleComponents from './kits/list-components';
import * as updateKitComponent from './kits/update-component';
import * as getReorderReport from './purchasing/get-reorder-report';
import * as createVendorBill from './vendor-bills/create-vendor-bill';
import * as listVendorBills from './vendor-bills/list-vendor-bills';
import * as getVendorBill from './vendor-bills/get-vendor-bill';
import * as updateVendorBill from './vendor-bills/update-vendor-bill';
import * as createVendorBillLine from './vendor-bills/create-vendor-bill-line';
import * as updateVendorBillLine from './vendor-bills/update-vendor-bill-line';
import * as deleteVendorBillLine from './vendor-bills/delete-vendor-bill-line';
import * as submitVendorBill from './vendor-bills/submit-vendor-bill';
import * as approveVendorBill from './vendor-bills/approve-vendor-bill';
import * as rejectVendorBill from './vendor-bills/reject-vendor-bill';
import * as postVendorBill from './vendor-bills/post-vendor-bill';
import * as voidVendorBill from './vendor-bills/void-vendor-bill';
import * as createPaymentTerm from './payment-terms/create-payment-term';
import * as listPaymentTerms from './payment-terms/list-payment-terms';
import * as getPaymentTerm from './payment-terms/get-payment-term';
import * as updatePaymentTerm from './payment-terms/update-payment-term';
import * as deletePaymentTerm from './payment-terms/delete-payment-term';
import * as createVendorCredit from './vendor-credits/create-vendor-credit';
import * as listVendorCredits from './vendor-credits/list-vendor-credits';
import * as getVendorCredit from './vendor-credits/get-vendor-credit';
import * as voidVendorCredit from './vendor-credits/void-vendor-credit';
import * as createVendorReturn from './orders/create-vendor-return';
import * as getVendorReturn from './vendor-returns/get-vendor-return';
import * as createApPayment from './ap-payments/create-ap-payment';
import * as listApPayments from './ap-payments/list-ap-payments';
import * as getApPayment from './ap-payments/get-ap-payment';
import * as voidApPayment from './ap-payments/void-ap-payment';
import * as createPricingLevel from './pricing-levels/create-pricing-level';
import * as createPricingPolicy from './pricing-policies/create-pricing-policy';
import * as getPricingLevel from './pricing-levels/get-pricing-level';
import * as getPricingPolicy from './pricing-policies/get-pricing-policy';
import * as listPricingLevels from './pricing-levels/list-pricing-levels';
import * as listPricingPolicies from './pricing-policies/list-pricing-policies';
import * as createProductOption from './products/create-product-option';
import * as deleteProductOption from './products/delete-product-option';
import * as listProductOptions from './products/list-product-options';
import * as reorderProductOptions from './products/reorder-product-options';
import * as createProductVendor from './products/create-product-vendor';
import * as deleteProductVendor from './products/delete-product-vendor';
import * as listProductVendors from './products/list-product-vendors';
import * as updateProductVendor from './products/update-product-vendor';
import * as attachTag from './tags/attach-tag';
import * as createTag from './tags/create-tag';
import * as detachTag from './tags/detach-tag';
import * as listResourceTags from './tags/list-resource-tags';
import * as listTags from './tags/list-tags';
import * as createOrder from './orders/create-order';
import * as createOrderAdjustment from './orders/create-adjustment';
import * as deleteOrderAdjustment from './orders/delete-adjustment';
import * as applyOrderCoupon from './orders/apply-coupon';
import * as createCoupon from './coupons/create-coupon';
import * as getCoupon from './coupons/get-coupon';
import * as listCoupons from './coupons/list-coupons';
import * as updateCoupon from './coupons/update-coupon';
import * as deleteCoupon from './coupons/delete-coupon';
import * as createTaxRate from './tax-rates/create-tax-rate';
import * as getTaxRate from './tax-rates/get-tax-rate';
import * as listTaxRates from './tax-rates/list-tax-rates';
import * as updateTaxRate from './tax-rates/update-tax-rate';
import * as deleteTaxRate from './tax-rates/delete-tax-rate';
import * as createOrderLine from './orders/create-line';
import * as cancelOrder from './orders/cancel-order';
import * as confirmOrder from './orders/confirm-order';
import * as convertOrder from './orders/convert-order';
import * as createOrderFulfillment from './orders/create-fulfillment';
import * as createOrderReturn from './orders/create-return';
import * as receiveOrderReturn from './orders/receive-return';
import * as createPurchaseReceipt from './orders/create-purchase-receipt';
import * as createDropShipPurchaseOrders from './orders/create-drop-ship-purchase-orders';
import * as sendPurchaseOrder from './orders/send-purchase-order';
import * as submitPurchaseOrder from './orders/submit-purchase-order';
import * as holdOrder from './orders/hold-order';
import * as releaseOrder from './orders/release-order';
import * as voidOrder from './orders/void-order';
import * as archiveOrder from './orders/archive-order';
import * as unarchiveOrder from './orders/unarchive-order';
import * as applyCredit from './orders/apply-credit';
import * as refundCredit from './orders/refund-credit';
import * as deleteOrder from './orders/delete-order';
import * as deleteOrderLine from './orders/delete-line';
import * as duplicateOrder from './orders/duplicate-order';
import * as getOrder from './orders/get-order';
import * as listOrders from './orders/list-orders';
import * as updateOrder from './orders/update-order';
import * as updateOrderLine from './orders/update-line';
import * as approveOrder from './orders/approve-order';
import * as rejectOrder from './orders/reject-order';
import * as createOrderApprovalRule from './orders/create-approval-rule';
import * as listOrderApprovalRules from './orders/list-approval-rules';
import * as getOrderApprovalRule from './orders/get-approval-rule';
import * as updateOrderApprovalRule from './orders/update-approval-rule';
import * as deleteOrderApprovalRule from './orders/delete-approval-rule';
import * as createOrderPayment from './orders/create-order-payment';
import * as multiInvoiceApply from './payments/multi-invoice-apply';
import * as applyPayment from './payments/apply-payment';
import * as getPayment from './payments/get-payment';
import * as listPayments from './payments/list-payments';
import * as createPaymentRefund from './payments/create-refund';
import * as voidPayment from './payments/void-payment';
import * as clearPayment from './payments/clear-payment';
import * as failPayment from './payments/fail-payment';
import * as createSetupIntent from './accounts/create-setup-intent';
import * as attachPaymentMethod from './accounts/attach-payment-method';
import * as getPaymentMethod from './accounts/get-payment-method';
import * as updatePaymentMethod from './accounts/update-payment-method';
import * as deletePaymentMethod from './accounts/delete-payment-method';
import * as listPaymentMethods from './account-payment-methods/list-account-payment-methods';
import * as confirmTestSetupIntent from './test_helpers/confirm-setup-intent';
import * as previewDeposit from './deposits/preview-deposit';
import * as createDeposit from './deposits/create-deposit';
import * as getDeposit from './deposits/get-deposit';
import * as listDeposits from './deposits/list-deposits';

export interface RouteModule {
  route: Route;
  handler: unknown;
}

/** `satisfies`, not a type annotation: the literal type keeps each route's method, path and schemas for the typed test client. */
export const ROUTE_MODULES = {
  'api-keys/create-api-key': createApiKey,
  'api-keys/get-api-key': getApiKey,
  'api-keys/list-api-keys': listApiKeys,
  'api-keys/revoke-api-key': revokeApiKey,
  'api-keys/roll-api-key': rollApiKey,
  'api-keys/update-api-key': updateApiKey,
  'locations/create-location': createLocation,
  'locations/delete-location': deleteLocation,
  'locations/get-location': getLocation,
  'locations/list-locations': listLocations,
  'locations/update-location': updateLocation,
  'manufacturers/create-manufacturer': createManufacturer,
  'manufacturers/delete-manufacturer': deleteManufacturer,
  'manufacturers/get-manufacturer': getManufacturer,
  'manufacturers/list-manufacturers': listManufacturers,
  'manufacturers/update-manufacturer': updateManufacturer,
  'gl-accounts/create-gl-account': createGlAccount,
  'gl-accounts/delete-gl-account': deleteGlAccount,
  'gl-accounts/get-gl-account': getGlAccount,
  'gl-accounts/list-gl-accounts': listGlAccounts,
  'gl-accounts/update-gl-account': updateGlAccount,
  'journal-entries/create-journal-entry': createJournalEntry,
  'journal-entries/delete-journal-entry': deleteJournalEntry,
  'journal-entries/get-journal-entry': getJournalEntry,
  'journal-entries/list-journal-entries': listJournalEntries,
  'journal-entries/post-journal-entry': postJournalEntry,
  'journal-entries/reverse-journal-entry': reverseJournalEntry,
  'journal-entries/update-journal-entry': updateJournalEntry,
  'periods/approve-period-close': approvePeriodClose,
  'periods/create-fiscal-year': createFiscalYear,
  'periods/create-period': createPeriod,
  'periods/get-period': getPeriod,
  'periods/list-periods': listPeriods,
  'periods/reopen-period': reopenPeriod,
  'periods/request-period-close': requestPeriodClose,
  'reconciliation/get-cash-balance': getCashBalance,
  'reconciliation/get-ap-aging': getApAging,
  'reconciliation/get-trial-balance': getTrialBalance,
  'recurring-journal-entries/create-recurring-journal-entry': createRecurringJournalEntry,
  'recurring-journal-entries/delete-recurring-journal-entry': deleteRecurringJournalEntry,
  'recurring-journal-entries/get-recurring-journal-entry': getRecurringJournalEntry,
  'recurring-journal-entries/list-recurring-journal-entries': listRecurringJournalEntries,
  'recurring-journal-entries/update-recurring-journal-entry': updateRecurringJournalEntry,
  'openapi/get-openapi': getOpenApi,
  'docs/get-docs': getDocs,
  'docs/get-docs-script': getDocsScript,
  'units-of-measure/create-unit-of-measure': createUnitOfMeasure,
  'units-of-measure/delete-unit-of-measure': deleteUnitOfMeasure,
  'units-of-measure/get-unit-of-measure': getUnitOfMeasure,
  'units-of-measure/list-units-of-measure': listUnitsOfMeasure,
  'units-of-measure/update-unit-of-measure': updateUnitOfMeasure,
  'products/create-product': createProduct,
  'products/delete-product': deleteProduct,
  'products/get-product': getProduct,
  'products/list-products': listProducts,
  'products/update-product': updateProduct,
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
  'inventory/create-adjustment': createInventoryAdjustment,
  'inventory/create-receipt': createInventoryReceipt,
  'inventory/create-transfer': createInventoryTransfer,
  'inventory/get-balance': getInventoryBalance,
  'inventory/get-transaction': getInventoryTransaction,
  'inventory/list-balances': listInventoryBalances,
  'inventory/list-transactions': listInventoryTransactions,
  'kits/create-build': createKitBuild,
  'kits/create-kit': createKit,
  'kits/get-availability': getKitAvailability,
  'kits/get-kit': getKit,
  'products/list-kit-components': listKitComponents,
  'kits/list-kits': listKits,
  'kits/create-component': createKitComponent,
  'kits/delete-component': deleteKitComponent,
  'kits/get-component': getKitComponent,
  'kits/list-components': listKitBundleComponents,
  'kits/update-component': updateKitComponent,
  'purchasing/get-reorder-report': getReorderReport,
  'pricing-levels/create-pricing-level': createPricingLevel,
  'pricing-policies/create-pricing-policy': createPricingPolicy,
  'pricing-levels/get-pricing-level': getPricingLevel,
  'pricing-policies/get-pricing-policy': getPricingPolicy,
  'pricing-levels/list-pricing-levels': listPricingLevels,
  'pricing-policies/list-pricing-policies': listPricingPolicies,
  'products/create-product-option': createProductOption,
  'products/delete-product-option': deleteProductOption,
  'products/list-product-options': listProductOptions,
  'products/reorder-product-options': reorderProductOptions,
  'products/create-product-vendor': createProductVendor,
  'products/delete-product-vendor': deleteProductVendor,
  'products/list-product-vendors': listProductVendors,
  'products/update-product-vendor': updateProductVendor,
  'tags/attach-tag': attachTag,
  'tags/create-tag': createTag,
  'tags/detach-tag': detachTag,
  'tags/list-resource-tags': listResourceTags,
  'tags/list-tags': listTags,
  'orders/create-order': createOrder,
  'orders/create-adjustment': createOrderAdjustment,
  'orders/delete-adjustment': deleteOrderAdjustment,
  'orders/apply-coupon': applyOrderCoupon,
  'coupons/create-coupon': createCoupon,
  'coupons/get-coupon': getCoupon,
  'coupons/list-coupons': listCoupons,
  'coupons/update-coupon': updateCoupon,
  'coupons/delete-coupon': deleteCoupon,
  'tax-rates/create-tax-rate': createTaxRate,
  'tax-rates/get-tax-rate': getTaxRate,
  'tax-rates/list-tax-rates': listTaxRates,
  'tax-rates/update-tax-rate': updateTaxRate,
  'tax-rates/delete-tax-rate': deleteTaxRate,
  'orders/create-line': createOrderLine,
  'orders/cancel-order': cancelOrder,
  'orders/confirm-order': confirmOrder,
  'orders/convert-order': convertOrder,
  'orders/create-fulfillment': createOrderFulfillment,
  'orders/create-return': createOrderReturn,
  'orders/receive-return': receiveOrderReturn,
  'orders/create-purchase-receipt': createPurchaseReceipt,
  'orders/create-drop-ship-purchase-orders': createDropShipPurchaseOrders,
  'orders/send-purchase-order': sendPurchaseOrder,
  'orders/submit-purchase-order': submitPurchaseOrder,
  'orders/hold-order': holdOrder,
  'orders/release-order': releaseOrder,
  'orders/void-order': voidOrder,
  'orders/archive-order': archiveOrder,
  'orders/unarchive-order': unarchiveOrder,
  'orders/apply-credit': applyCredit,
  'orders/refund-credit': refundCredit,
  'orders/delete-order': deleteOrder,
  'orders/delete-line': deleteOrderLine,
  'orders/duplicate-order': duplicateOrder,
  'orders/get-order': getOrder,
  'orders/list-orders': listOrders,
  'orders/update-order': updateOrder,
  'orders/update-line': updateOrderLine,
  'orders/approve-order': approveOrder,
  'orders/reject-order': rejectOrder,
  'orders/create-approval-rule': createOrderApprovalRule,
  'orders/list-approval-rules': listOrderApprovalRules,
  'orders/get-approval-rule': getOrderApprovalRule,
  'orders/update-approval-rule': updateOrderApprovalRule,
  'orders/delete-approval-rule': deleteOrderApprovalRule,
  'orders/create-order-payment': createOrderPayment,
  'payments/multi-invoice-apply': multiInvoiceApply,
  'payments/apply-payment': applyPayment,
  'payments/get-payment': getPayment,
  'payments/list-payments': listPayments,
  'payments/create-refund': createPaymentRefund,
  'payments/void-payment': voidPayment,
  'payments/clear-payment': clearPayment,
  'payments/fail-payment': failPayment,
  'accounts/create-setup-intent': createSetupIntent,
  'accounts/attach-payment-method': attachPaymentMethod,
  'accounts/get-payment-method': getPaymentMethod,
  'accounts/update-payment-method': updatePaymentMethod,
  'accounts/delete-payment-method': deletePaymentMethod,
  'account-payment-methods/list-account-payment-methods': listPaymentMethods,
  'test_helpers/confirm-setup-intent': confirmTestSetupIntent,
  'deposits/preview-deposit': previewDeposit,
  'deposits/create-deposit': createDeposit,
  'deposits/get-deposit': getDeposit,
  'deposits/list-deposits': listDeposits,
  'events/list-events': listEvents,
  'events/get-event': getEvent,
  'events/resend-event': resendEvent,
  'webhook-endpoints/list-webhook-deliveries': listWebhookDeliveries,
  'webhook-endpoints/test-webhook-endpoint': testWebhookEndpoint,
  'webhook-endpoints/create-webhook-endpoint': createWebhookEndpoint,
  'webhook-endpoints/list-webhook-endpoints': listWebhookEndpoints,
  'webhook-endpoints/get-webhook-endpoint': getWebhookEndpoint,
  'webhook-endpoints/update-webhook-endpoint': updateWebhookEndpoint,
  'webhook-endpoints/delete-webhook-endpoint': deleteWebhookEndpoint,
  'webhook-endpoints/disable-webhook-endpoint': disableWebhookEndpoint,
  'webhook-endpoints/enable-webhook-endpoint': enableWebhookEndpoint,
  'webhook-endpoints/roll-webhook-endpoint-secret': rollWebhookEndpointSecret,
  'migration/relink-inventory-transaction-sources': relinkInventoryTransactionSources,
  'migration/freeze-cutover': freezeCutover,
  'migration/unfreeze-cutover': unfreezeCutover,
  'migration/list-cutover-log': listCutoverLog,
  'migration/create-cutover-snapshot': createCutoverSnapshot,
  'migration/get-cutover-snapshot': getCutoverSnapshot,
  'migration/list-cutover-snapshots': listCutoverSnapshots,
  'migration/create-migration-batch': createMigrationBatch,
  'migration/list-migration-batches': listMigrationBatches,
  'migration/get-migration-batch': getMigrationBatch,
  'migration/complete-migration-batch': completeMigrationBatch,
  'migration/rollback-migration-batch': rollbackMigrationBatch,
  'vendor-bills/create-vendor-bill': createVendorBill,
  'vendor-bills/list-vendor-bills': listVendorBills,
  'vendor-bills/get-vendor-bill': getVendorBill,
  'vendor-bills/update-vendor-bill': updateVendorBill,
  'vendor-bills/create-vendor-bill-line': createVendorBillLine,
  'vendor-bills/update-vendor-bill-line': updateVendorBillLine,
  'vendor-bills/delete-vendor-bill-line': deleteVendorBillLine,
  'vendor-bills/submit-vendor-bill': submitVendorBill,
  'vendor-bills/approve-vendor-bill': approveVendorBill,
  'vendor-bills/reject-vendor-bill': rejectVendorBill,
  'vendor-bills/post-vendor-bill': postVendorBill,
  'vendor-bills/void-vendor-bill': voidVendorBill,
  'payment-terms/create-payment-term': createPaymentTerm,
  'payment-terms/list-payment-terms': listPaymentTerms,
  'payment-terms/get-payment-term': getPaymentTerm,
  'payment-terms/update-payment-term': updatePaymentTerm,
  'payment-terms/delete-payment-term': deletePaymentTerm,
  'vendor-credits/create-vendor-credit': createVendorCredit,
  'vendor-credits/list-vendor-credits': listVendorCredits,
  'vendor-credits/get-vendor-credit': getVendorCredit,
  'vendor-credits/void-vendor-credit': voidVendorCredit,
  'orders/create-vendor-return': createVendorReturn,
  'vendor-returns/get-vendor-return': getVendorReturn,
  'ap-payments/create-ap-payment': createApPayment,
  'ap-payments/list-ap-payments': listApPayments,
  'ap-payments/get-ap-payment': getApPayment,
  'ap-payments/void-ap-payment': voidApPayment,
} satisfies Record<string, RouteModule>;

export const ROUTES: Route[] = Object.values(ROUTE_MODULES).map((module) => module.route);
