/**
 * Route table entries: vendor bills and their lines, payment terms, vendor credits and returns, AP
 * payments, and the AP aging report (shared/payables). Keys are the handler modules' paths under
 * functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as createVendorBill from '../vendor-bills/create-vendor-bill';
import * as listVendorBills from '../vendor-bills/list-vendor-bills';
import * as getVendorBill from '../vendor-bills/get-vendor-bill';
import * as updateVendorBill from '../vendor-bills/update-vendor-bill';
import * as createVendorBillLine from '../vendor-bills/create-vendor-bill-line';
import * as updateVendorBillLine from '../vendor-bills/update-vendor-bill-line';
import * as deleteVendorBillLine from '../vendor-bills/delete-vendor-bill-line';
import * as submitVendorBill from '../vendor-bills/submit-vendor-bill';
import * as approveVendorBill from '../vendor-bills/approve-vendor-bill';
import * as rejectVendorBill from '../vendor-bills/reject-vendor-bill';
import * as postVendorBill from '../vendor-bills/post-vendor-bill';
import * as voidVendorBill from '../vendor-bills/void-vendor-bill';
import * as createPaymentTerm from '../payment-terms/create-payment-term';
import * as listPaymentTerms from '../payment-terms/list-payment-terms';
import * as getPaymentTerm from '../payment-terms/get-payment-term';
import * as updatePaymentTerm from '../payment-terms/update-payment-term';
import * as deletePaymentTerm from '../payment-terms/delete-payment-term';
import * as createVendorCredit from '../vendor-credits/create-vendor-credit';
import * as listVendorCredits from '../vendor-credits/list-vendor-credits';
import * as getVendorCredit from '../vendor-credits/get-vendor-credit';
import * as voidVendorCredit from '../vendor-credits/void-vendor-credit';
import * as createVendorReturn from '../orders/create-vendor-return';
import * as listVendorReturns from '../vendor-returns/list-vendor-returns';
import * as getVendorReturn from '../vendor-returns/get-vendor-return';
import * as createApPayment from '../ap-payments/create-ap-payment';
import * as listApPayments from '../ap-payments/list-ap-payments';
import * as getApPayment from '../ap-payments/get-ap-payment';
import * as voidApPayment from '../ap-payments/void-ap-payment';
import * as getApAging from '../reconciliation/get-ap-aging';

export const PAYABLE_ROUTES = {
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
  'vendor-returns/list-vendor-returns': listVendorReturns,
  'vendor-returns/get-vendor-return': getVendorReturn,
  'ap-payments/create-ap-payment': createApPayment,
  'ap-payments/list-ap-payments': listApPayments,
  'ap-payments/get-ap-payment': getApPayment,
  'ap-payments/void-ap-payment': voidApPayment,
  'reconciliation/get-ap-aging': getApAging,
} satisfies Record<string, RouteModule>;
