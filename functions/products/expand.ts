/** expand[] loaders of product objects (manufacturer, uom), shared by product and kit routes. */
import { loadManufacturers } from '../../shared/catalog/manufacturers';
import { loadUnitsOfMeasure } from '../../shared/catalog/units-of-measure';
import { expandById, type ExpandSpec } from '../../shared/http/expand';

export const PRODUCT_EXPAND: ExpandSpec = {
  manufacturer: expandById('manufacturer_id', 'manufacturer', loadManufacturers),
  uom: expandById('uom_id', 'uom', loadUnitsOfMeasure),
};
