/** Stand-in for `pg/lib/native`: the pg-native client is a native addon, which the bundles cannot carry; pg only loads it when asked (`pg.native`). */
throw Object.assign(new Error('pg-native is not part of this bundle'), { code: 'MODULE_NOT_FOUND' });

export {};
