/**
 * Bundle stand-in for `pg/lib/native`, the pg-native client. pg loads it only when asked
 * (`pg.native`, NODE_PG_FORCE_NATIVE), and the bundles never ship the pg-native addon, so the real
 * module could only fail with MODULE_NOT_FOUND: this fails the same way, without its code in every
 * bundle.
 */
throw Object.assign(new Error('pg-native is not part of this bundle'), { code: 'MODULE_NOT_FOUND' });

export {};
