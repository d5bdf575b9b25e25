/**
 * The table ownership check (docs/architecture.md, "Who owns a table"): every table of migrations/
 * belongs to one capability or to the platform (`OWNED_TABLES` and `PLATFORM_TABLES` beside
 * `CAPABILITIES` in .dependency-cruiser.cjs), and the SQL in a capability's files names only its own
 * tables and the platform's. SQL is read from the string and template literals of each file (a
 * template's substitutions count as gaps), and a table is named where it follows a keyword that
 * takes one: FROM, JOIN, UPDATE, INTO, REFERENCES, TABLE, USING. A table a query takes from a value
 * (`FROM ${table}`, keysetPage's `table:`) is named by the literal that holds it: in a file with
 * such a query, and in any `table:` property, a literal that is a table name (with an alias and
 * joins, as in `'product_vendors pv JOIN ...'`) names that table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';

interface Ownership {
  capabilities: string[];
  /** table → the capability that owns it, or 'platform'. */
  owner: Map<string, string>;
}

interface Violation {
  file: string;
  line: number;
  table: string;
  owner: string;
}

const root = join(import.meta.dirname, '../..');

/** The maps of .dependency-cruiser.cjs. */
export function loadOwnership(): Ownership & { ownedTwice: string[] } {
  const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as {
    CAPABILITIES: Record<string, string[]>;
    OWNED_TABLES: Record<string, string[]>;
    PLATFORM_TABLES: string[];
  };
  const owner = new Map<string, string>();
  const ownedTwice: string[] = [];
  const claim = (table: string, by: string) => {
    if (owner.has(table)) ownedTwice.push(table);
    owner.set(table, by);
  };
  for (const [capability, tables] of Object.entries(config.OWNED_TABLES)) for (const table of tables) claim(table, capability);
  for (const table of config.PLATFORM_TABLES) claim(table, 'platform');
  return { capabilities: Object.keys(config.CAPABILITIES), owner, ownedTwice };
}

/** Every table the migrations create. */
export function migrationTables(): string[] {
  const dir = join(root, 'migrations');
  const tables = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.sql'))) {
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:public\.)?([a-z_][a-z0-9_]*)/gi)) {
      tables.add(match[1].toLowerCase());
    }
  }
  return [...tables].sort();
}

/** The text of each string and template literal of a TypeScript source, with its line. */
function literalTexts(fileName: string, source: string): { text: string; line: number; tableProperty: boolean }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const texts: { text: string; line: number; tableProperty: boolean }[] = [];
  const lineOf = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isLiteralTypeNode(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const parent = node.parent;
      const tableProperty = ts.isPropertyAssignment(parent) && parent.initializer === node && parent.name.getText(file) === 'table';
      texts.push({ text: node.text, line: lineOf(node), tableProperty });
    } else if (ts.isTemplateExpression(node)) {
      const text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ${} ');
      texts.push({ text, line: lineOf(node), tableProperty: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return texts;
}

const NAME = '([a-z_][a-z0-9_]*)';
// A keyword that takes a table, then the table; FROM also takes a comma list (`FROM a x, b y`).
const TABLE_AFTER_KEYWORD = new RegExp(`\\b(?:FROM|JOIN|UPDATE|INTO|REFERENCES|TABLE|USING)\\s+(?:ONLY\\s+)?${NAME}`, 'g');
const FROM_LIST = new RegExp(`\\bFROM\\s+${NAME}(?:\\s+(?:AS\\s+)?[a-z_][a-z0-9_]*)?((?:\\s*,\\s*[a-z_][a-z0-9_]*(?:\\s+(?:AS\\s+)?[a-z_][a-z0-9_]*)?)+)`, 'g');

/** The names that stand where SQL takes a table (keywords in capitals, as every store writes them). */
export function tableNames(sql: string): string[] {
  const names = [...sql.matchAll(TABLE_AFTER_KEYWORD)].map((match) => match[1]);
  for (const match of sql.matchAll(FROM_LIST)) {
    for (const item of match[2].split(',').slice(1)) names.push(item.trim().split(/\s+/)[0]);
  }
  return names;
}

const DYNAMIC_TABLE = /\b(?:FROM|JOIN|UPDATE|INTO|TABLE)\s+(?:ONLY\s+)?\$\{\}/;
// A whole literal that is a table, with an optional alias and joins: what a `FROM ${table}` takes.
const TABLE_VALUE = new RegExp(`^${NAME}(?:\\s+[a-z_][a-z0-9_]*)?(?:\\s+(?:LEFT\\s+|INNER\\s+)?JOIN\\b[\\s\\S]*)?$`);

/** The capability a file under shared/ belongs to, if any (platform files belong to none). */
function capabilityOf(file: string, capabilities: string[]): string | undefined {
  const folder = /^shared\/([^/]+)\//.exec(file)?.[1];
  return folder && capabilities.includes(folder) ? folder : undefined;
}

/** The places where a capability's SQL names a table another capability owns. */
export function violations(files: { file: string; source: string }[], ownership: Ownership): Violation[] {
  const found: Violation[] = [];
  for (const { file, source } of files) {
    const capability = capabilityOf(file, ownership.capabilities);
    if (!capability) continue;
    const texts = literalTexts(file, source);
    const dynamic = texts.some(({ text }) => DYNAMIC_TABLE.test(text));
    for (const { text, line, tableProperty } of texts) {
      const value = dynamic || tableProperty ? TABLE_VALUE.exec(text.trim())?.[1] : undefined;
      for (const table of new Set([...tableNames(text), ...(value ? [value] : [])])) {
        const owner = ownership.owner.get(table);
        if (owner && owner !== 'platform' && owner !== capability) found.push({ file, line, table, owner });
      }
    }
  }
  return found;
}

/** Every .ts file under shared/, with its path from the repository root. */
export function sharedSources(): { file: string; source: string }[] {
  const dir = join(root, 'shared');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => ({ file: relative(root, join(dir, name)).split('\\').join('/'), source: readFileSync(join(dir, name), 'utf8') }));
}
