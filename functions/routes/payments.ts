/**
 * Route table entries: customer payments and refunds, saved payment methods and setup intents, and
 * deposits (shared/payments). Keys are the handler modules' paths under functions/ (see
 * ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as createOrderPayment from '../orders/create-order-payment';
import * as multiInvoiceApply from '../payments/multi-invoice-apply';
import * as applyPayment from '../payments/apply-payment';
import * as applyPaymentCredit from '../payments/apply-payment-credit';
import * as getPayment from '../payments/get-payment';
import * as listPayments from '../payments/list-payments';
import * as createPaymentRefund from '../payments/create-refund';
import * as voidPayment from '../payments/void-payment';
import * as clearPayment from '../payments/clear-payment';
import * as failPayment from '../payments/fail-payment';
import * as createSetupIntent from '../accounts/create-setup-intent';
import * as attachPaymentMethod from '../accounts/attach-payment-method';
import * as getPaymentMethod from '../accounts/get-payment-method';
import * as updatePaymentMethod from '../accounts/update-payment-method';
import * as deletePaymentMethod from '../accounts/delete-payment-method';
import * as listPaymentMethods from '../account-payment-methods/list-account-payment-methods';
import * as confirmTestSetupIntent from '../test_helpers/confirm-setup-intent';
import * as previewDeposit from '../deposits/preview-deposit';
import * as createDeposit from '../deposits/create-deposit';
import * as getDeposit from '../deposits/get-deposit';
import * as listDeposits from '../deposits/list-deposits';

export const PAYMENT_ROUTES = {
  'orders/create-order-payment': createOrderPayment,
  'payments/multi-invoice-apply': multiInvoiceApply,
  'payments/apply-payment': applyPayment,
  'payments/apply-payment-credit': applyPaymentCredit,
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
} satisfies Record<string, RouteModule>;
