/**
 * The expired-quote rule, written once: a quote still draft or confirmed whose expires_at has
 * passed. It is a read-time rule (is_expired is true from that instant, with no job to wait for);
 * the expiry job (expire-quotes.ts) announces each lapse once.
 */

/**
 * The SQL condition that a row of orders (its columns prefixed by `alias.`, or bare without one) is
 * an expired quote as of `asOf` (a SQL timestamp expression; the statement's now() by default).
 */
export function expiredQuoteSql(alias?: string, asOf = 'now()'): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `(${column('document_type')} = 'quote' AND ${column('order_status')} IN ('draft', 'confirmed') AND ${column('expires_at')} IS NOT NULL AND ${column('expires_at')} <= ${asOf})`;
}
