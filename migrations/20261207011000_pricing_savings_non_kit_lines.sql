-- Up Migration

-- list_price_total and pricing_savings are sums over the non-kit lines (a kit's or bundle's line
-- that carries component lines, and those component lines, count in neither). Documents stored
-- while the kit's line counted are brought to the rule; every later recalculation keeps it.
UPDATE orders o SET list_price_total = t.list_total, pricing_savings = t.list_total - t.subtotal
  FROM (
    SELECT l.entity_id, l.order_id,
           coalesce(sum(round(l.list_price * l.quantity, 2)), 0) AS list_total,
           coalesce(sum(l.line_subtotal), 0) AS subtotal
      FROM order_lines l
     WHERE l.kit_parent_line_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM order_lines c WHERE c.entity_id = l.entity_id AND c.kit_parent_line_id = l.id)
     GROUP BY l.entity_id, l.order_id
  ) t
 WHERE o.entity_id = t.entity_id AND o.id = t.order_id
   AND EXISTS (SELECT 1 FROM order_lines k WHERE k.entity_id = o.entity_id AND k.order_id = o.id AND k.kit_parent_line_id IS NOT NULL)
   AND (o.list_price_total <> t.list_total OR o.pricing_savings <> t.list_total - t.subtotal);

-- Down Migration
-- Nothing to undo: the figures are derived and the previous ones were wrong.
