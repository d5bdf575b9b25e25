/**
 * Route table entries: products and what describes them (units of measure, manufacturers, kits and
 * their components, pricing levels and policies, product options, product vendors and tags)
 * (shared/catalog). Keys are the handler modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as createManufacturer from '../manufacturers/create-manufacturer';
import * as deleteManufacturer from '../manufacturers/delete-manufacturer';
import * as getManufacturer from '../manufacturers/get-manufacturer';
import * as listManufacturers from '../manufacturers/list-manufacturers';
import * as updateManufacturer from '../manufacturers/update-manufacturer';
import * as createUnitOfMeasure from '../units-of-measure/create-unit-of-measure';
import * as deleteUnitOfMeasure from '../units-of-measure/delete-unit-of-measure';
import * as getUnitOfMeasure from '../units-of-measure/get-unit-of-measure';
import * as listUnitsOfMeasure from '../units-of-measure/list-units-of-measure';
import * as updateUnitOfMeasure from '../units-of-measure/update-unit-of-measure';
import * as createProduct from '../products/create-product';
import * as deleteProduct from '../products/delete-product';
import * as getProduct from '../products/get-product';
import * as listProducts from '../products/list-products';
import * as updateProduct from '../products/update-product';
import * as createKit from '../kits/create-kit';
import * as getKit from '../kits/get-kit';
import * as listKitComponents from '../products/list-kit-components';
import * as listKits from '../kits/list-kits';
import * as createKitComponent from '../kits/create-component';
import * as deleteKitComponent from '../kits/delete-component';
import * as getKitComponent from '../kits/get-component';
import * as listKitBundleComponents from '../kits/list-components';
import * as updateKitComponent from '../kits/update-component';
import * as createPricingLevel from '../pricing-levels/create-pricing-level';
import * as createPricingPolicy from '../pricing-policies/create-pricing-policy';
import * as getPricingLevel from '../pricing-levels/get-pricing-level';
import * as getPricingPolicy from '../pricing-policies/get-pricing-policy';
import * as listPricingLevels from '../pricing-levels/list-pricing-levels';
import * as listPricingPolicies from '../pricing-policies/list-pricing-policies';
import * as createProductOption from '../products/create-product-option';
import * as deleteProductOption from '../products/delete-product-option';
import * as listProductOptions from '../products/list-product-options';
import * as reorderProductOptions from '../products/reorder-product-options';
import * as createProductVendor from '../products/create-product-vendor';
import * as deleteProductVendor from '../products/delete-product-vendor';
import * as listProductVendors from '../products/list-product-vendors';
import * as updateProductVendor from '../products/update-product-vendor';
import * as attachTag from '../tags/attach-tag';
import * as createTag from '../tags/create-tag';
import * as detachTag from '../tags/detach-tag';
import * as listResourceTags from '../tags/list-resource-tags';
import * as listTags from '../tags/list-tags';

export const CATALOG_ROUTES = {
  'manufacturers/create-manufacturer': createManufacturer,
  'manufacturers/delete-manufacturer': deleteManufacturer,
  'manufacturers/get-manufacturer': getManufacturer,
  'manufacturers/list-manufacturers': listManufacturers,
  'manufacturers/update-manufacturer': updateManufacturer,
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
  'kits/create-kit': createKit,
  'kits/get-kit': getKit,
  'products/list-kit-components': listKitComponents,
  'kits/list-kits': listKits,
  'kits/create-component': createKitComponent,
  'kits/delete-component': deleteKitComponent,
  'kits/get-component': getKitComponent,
  'kits/list-components': listKitBundleComponents,
  'kits/update-component': updateKitComponent,
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
} satisfies Record<string, RouteModule>;
