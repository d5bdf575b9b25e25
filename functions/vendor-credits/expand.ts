import type { ExpandSpec } from '../../shared/http/expand';
import { loadParties } from '../../shared/parties/parties';
import { getBill } from '../../shared/payables/vendor-bills';
import { applicationsOfCredits } from '../../shared/payables/vendor-credits';
import { loadVendorReturns } from '../../shared/payables/vendor-returns';

type Credit = Record<string, unknown> & { id: string; entity_id: string; vendor_id: string; source_type: string; source_id: string | null };

/** What a vendor credit can expand (E16; data.-prefixed on the list). One query per kind per page, but the bills of price_adjustment sources (one per credit). */
export const VENDOR_CREDIT_EXPAND: ExpandSpec = {
  vendor: async ({ db }, parents) => {
    const credits = parents as Credit[];
    const vendors = await loadParties(db, 'vendor', [...new Set(credits.map((credit) => credit.vendor_id))]);
    const byId = new Map(vendors.map((vendor) => [vendor.id, vendor]));
    for (const credit of credits) credit.vendor = byId.get(credit.vendor_id) ?? null;
  },
  source: async ({ db }, parents) => {
    const credits = parents as Credit[];
    // vendor_return: the returns in one query; a source_id sent by hand that names no return stays null.
    const returnIds = credits.flatMap((credit) => (credit.source_type === 'vendor_return' && credit.source_id ? [credit.source_id] : []));
    const returns = returnIds.length ? await loadVendorReturns(db, credits[0].entity_id, returnIds) : [];
    const returnsById = new Map(returns.map((found) => [found.id, found]));
    for (const credit of credits) {
      if (credit.source_type === 'vendor_return') credit.source = (credit.source_id && returnsById.get(credit.source_id)) ?? null;
      else credit.source = credit.source_type === 'price_adjustment' && credit.source_id ? await getBill(db, credit.entity_id, credit.source_id) : null;
    }
  },
  applications: async ({ db }, parents) => {
    const credits = parents as Credit[];
    const byCredit = await applicationsOfCredits(
      db,
      credits[0].entity_id,
      credits.map((credit) => credit.id),
    );
    for (const credit of credits) credit.applications = byCredit.get(credit.id) ?? [];
  },
};
