-- Up Migration

-- products.reorder_point_mode: manual (the stored reorder_point is what the user set; the default)
-- or demand (the server keeps reorder_point at demand_avg_per_day x the preferred vendor's
-- lead_time_days, refreshed on every stock movement of the product and when the mode is set).
ALTER TABLE products ADD COLUMN reorder_point_mode text NOT NULL DEFAULT 'manual' CHECK (reorder_point_mode IN ('manual', 'demand'));

-- Down Migration

ALTER TABLE products DROP COLUMN reorder_point_mode;
