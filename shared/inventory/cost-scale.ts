/** Inventory costs keep 4 decimals (unit and total cost). Apart from the inventory schemas, so that SQL modules can use it without bundling them. */
export const COST_SCALE = 4;
