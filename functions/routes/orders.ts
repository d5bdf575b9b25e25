/**
 * Route table entries: sales and purchase orders through their lifecycle, their lines, adjustments,
 * approvals, fulfillments and returns, with coupons and tax rates, and the AR aging (shared/orders). Keys are the
 * handler modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as createOrder from '../orders/create-order';
import * as createOrderAdjustment from '../orders/create-adjustment';
import * as deleteOrderAdjustment from '../orders/delete-adjustment';
import * as applyOrderCoupon from '../orders/apply-coupon';
import * as createCoupon from '../coupons/create-coupon';
import * as getCoupon from '../coupons/get-coupon';
import * as listCoupons from '../coupons/list-coupons';
import * as updateCoupon from '../coupons/update-coupon';
import * as deleteCoupon from '../coupons/delete-coupon';
import * as createTaxRate from '../tax-rates/create-tax-rate';
import * as getTaxRate from '../tax-rates/get-tax-rate';
import * as listTaxRates from '../tax-rates/list-tax-rates';
import * as updateTaxRate from '../tax-rates/update-tax-rate';
import * as deleteTaxRate from '../tax-rates/delete-tax-rate';
import * as createOrderLine from '../orders/create-line';
import * as cancelOrder from '../orders/cancel-order';
import * as confirmOrder from '../orders/confirm-order';
import * as convertOrder from '../orders/convert-order';
import * as createOrderFulfillment from '../orders/create-fulfillment';
import * as createOrderReturn from '../orders/create-return';
import * as receiveOrderReturn from '../orders/receive-return';
import * as createPurchaseReceipt from '../orders/create-purchase-receipt';
import * as createDropShipPurchaseOrders from '../orders/create-drop-ship-purchase-orders';
import * as sendPurchaseOrder from '../orders/send-purchase-order';
import * as submitPurchaseOrder from '../orders/submit-purchase-order';
import * as holdOrder from '../orders/hold-order';
import * as releaseOrder from '../orders/release-order';
import * as voidOrder from '../orders/void-order';
import * as archiveOrder from '../orders/archive-order';
import * as unarchiveOrder from '../orders/unarchive-order';
import * as applyCredit from '../orders/apply-credit';
import * as refundCredit from '../orders/refund-credit';
import * as deleteOrder from '../orders/delete-order';
import * as deleteOrderLine from '../orders/delete-line';
import * as duplicateOrder from '../orders/duplicate-order';
import * as getOrder from '../orders/get-order';
import * as listOrders from '../orders/list-orders';
import * as updateOrder from '../orders/update-order';
import * as updateOrderLine from '../orders/update-line';
import * as approveOrder from '../orders/approve-order';
import * as rejectOrder from '../orders/reject-order';
import * as createOrderApprovalRule from '../orders/create-approval-rule';
import * as listOrderApprovalRules from '../orders/list-approval-rules';
import * as getOrderApprovalRule from '../orders/get-approval-rule';
import * as updateOrderApprovalRule from '../orders/update-approval-rule';
import * as getArAging from '../reconciliation/get-ar-aging';
import * as deleteOrderApprovalRule from '../orders/delete-approval-rule';

export const ORDER_ROUTES = {
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
  'reconciliation/get-ar-aging': getArAging,
  'orders/delete-approval-rule': deleteOrderApprovalRule,
} satisfies Record<string, RouteModule>;
