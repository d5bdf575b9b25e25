import { describe, expect, it } from 'vitest';
import { loadOwnership, migrationTables, sharedSources, tableNames, violations } from '../support/table-ownership';

const ownership = loadOwnership();

describe('table ownership (.dependency-cruiser.cjs: OWNED_TABLES, PLATFORM_TABLES)', () => {
  it('every table of migrations/ has exactly one owner, and every listed table exists', () => {
    const tables = migrationTables();
    expect(tables.length).toBeGreaterThan(50);
    expect(tables.filter((table) => !ownership.owner.has(table))).toEqual([]);
    expect(ownership.ownedTwice).toEqual([]);
    expect([...ownership.owner.keys()].filter((table) => !tables.includes(table))).toEqual([]);
  });

  it("no capability's SQL names another capability's table", () => {
    const found = violations(sharedSources(), ownership);
    expect(found.map(({ file, line, table, owner }) => `${file}:${line} names ${table} (owned by ${owner})`)).toEqual([]);
  });

  it('finds a table after each keyword that takes one, and not in prose or column references', () => {
    expect(tableNames('SELECT o.id FROM orders o JOIN order_lines l ON l.order_id = o.id')).toEqual(['orders', 'order_lines']);
    expect(tableNames('UPDATE orders SET x = 1; INSERT INTO payments (id) VALUES (1); DELETE FROM refunds USING deposits d')).toEqual([
      'orders',
      'payments',
      'refunds',
      'deposits',
    ]);
    expect(tableNames('SELECT 1 FROM products p, vendors v WHERE p.id = v.id')).toEqual(['products', 'vendors']);
    expect(tableNames('FOREIGN KEY (entity_id, id) REFERENCES accounts (entity_id, id); LOCK TABLE ONLY gl_accounts')).toEqual(['accounts', 'gl_accounts']);
    expect(tableNames('Returns are made from orders that shipped goods.')).toEqual([]);
    expect(tableNames('SELECT o.balance_due FROM ${} WHERE orders.id = $1')).toEqual([]);
  });

  it("flags a planted query on another capability's table, in a string or a template, and passes the owner's own", () => {
    const planted = [
      {
        file: 'shared/payables/planted.ts',
        source: [
          "const a = 'SELECT id FROM orders WHERE entity_id = $1 FOR UPDATE';",
          'const b = (lock: string) => `SELECT 1 FROM vendor_bills b\n  JOIN order_lines l ON l.id = b.id ${lock}`;',
          '// a comment that says UPDATE orders is not SQL',
        ].join('\n'),
      },
      { file: 'shared/orders/planted.ts', source: "export const q = 'UPDATE orders SET status = $2 WHERE id = $1';" },
      { file: 'shared/db/planted.ts', source: "export const q = 'INSERT INTO number_sequences (entity_id) VALUES ($1)';" },
      // A table taken from a value: the literal that holds it names it.
      {
        file: 'shared/catalog/planted.ts',
        source: [
          "const TABLES = { account: 'accounts', product: 'products' };",
          'export const q = (kind: keyof typeof TABLES) => `SELECT 1 FROM ${TABLES[kind]} WHERE id = $1`;',
          "export const page = { table: 'vendor_bills', alias: 'b' };",
        ].join('\n'),
      },
    ];
    expect(violations(planted, ownership)).toEqual([
      { file: 'shared/payables/planted.ts', line: 1, table: 'orders', owner: 'orders' },
      { file: 'shared/payables/planted.ts', line: 2, table: 'order_lines', owner: 'orders' },
      { file: 'shared/catalog/planted.ts', line: 1, table: 'accounts', owner: 'parties' },
      { file: 'shared/catalog/planted.ts', line: 3, table: 'vendor_bills', owner: 'payables' },
    ]);
  });
});
