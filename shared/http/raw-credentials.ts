/**
 * Raw card or bank credentials are never accepted by the API (spec, Account payment method): the
 * handler stack runs every parsed JSON body through `findRawCredentials` before validation,
 * idempotency or logging, and refuses a hit with a 400 naming the JSON path (never the value).
 *
 * What counts (key names compared lower-case without `_`, `-` or spaces):
 * - card, by value, anywhere: any string (value or key, at any depth, metadata and arrays
 *   included) holding a card-number sequence, and any JSON number of 13 to 19 digits passing the
 *   Luhn check (see `containsCardNumber`). The one exemption: a field named as a barcode (gtin,
 *   upc, ean, barcode) whose value is exactly a GTIN-8/12/13/14 with a valid GS1 check digit.
 * - card, by name: a card number or security code field (card_number, cc_number, pan, cvc, cvv,
 *   cvc2, cvv2, security_code ...) whatever its value; `number` next to a cvc/exp_month or inside
 *   a `card` object.
 * - bank: routing_number (and aba/ach routing, iban, bank_account_number) anywhere; account_number
 *   only next to a routing number or inside a bank object, because `account_number` is also the
 *   customer and vendor reference on accounts and vendors; and in any bank-like field (a key with
 *   bank, ach, routing, aba, wire, remit or eft in it, or account_number) a value holding a 9-digit
 *   ABA routing number (valid checksum) next to a 4 to 17 digit account number.
 */

type RawCredentialKind = 'card' | 'bank';

export interface RawCredentialHit {
  kind: RawCredentialKind;
  /** The JSON path, e.g. `card.number` or `items[0].cvc`. */
  path: string;
}

const CARD_KEYS = new Set([
  'cardnumber',
  'ccnumber',
  'creditcardnumber',
  'debitcardnumber',
  'pan',
  'primaryaccountnumber',
  'cvc',
  'cvv',
  'cvc2',
  'cvv2',
  'securitycode',
  'cardsecuritycode',
  'cardcvc',
  'cardcvv',
  'cardverificationvalue',
  'cardverificationcode',
]);
const BANK_KEYS = new Set([
  'routingnumber',
  'abaroutingnumber',
  'aba',
  'abanumber',
  'achrouting',
  'achroutingnumber',
  'routingtransitnumber',
  'iban',
  'bankaccountnumber',
  'achaccountnumber',
]);
const CARD_CONTAINERS = new Set(['card', 'creditcard', 'debitcard', 'paymentcard']);
const BANK_CONTAINERS = new Set(['bank', 'bankaccount', 'usbankaccount', 'ach', 'achdebit', 'achaccount']);
const CVC_SIBLINGS = new Set(['cvc', 'cvv', 'cvc2', 'cvv2', 'securitycode', 'expmonth', 'expyear', 'expiry', 'expiration']);

const normalise = (key: string) => key.toLowerCase().replace(/[_\-\s]/g, '');

/** The Luhn (mod 10) check every payment card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A value that is, as a whole, a 13 to 19 digit number (spaces or dashes allowed) passing Luhn. */
export function looksLikeCardNumber(value: unknown): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const text = String(value).trim();
  if (!/^\d[\d -]*\d$/.test(text)) return false;
  const digits = text.replace(/[ -]/g, '');
  return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
}

const isCardLength = (digits: string) => digits.length >= 13 && digits.length <= 19;

/**
 * Whether a text holds a card number. Words are maximal runs of letters and digits; a word with a
 * letter in it is an identifier (hex hashes, processor ids), never part of a card number. Runs of
 * digit-only words joined by single spaces or dashes are examined: each word of 13 to 19 digits
 * (`4111111111111111`), and every sequence of consecutive words of 3 to 6 digits, the groups cards
 * are printed in (`4111 1111 1111 1111`, `3782 822463 10005`, also when a date or code follows),
 * the last of which may be shorter (`4111 1111 1111 1`), totalling 13 to 19 digits. A UUID's
 * groups (8-4-4-4-12) and an Amazon-style order number (3-7-7) never form one.
 */
export function containsCardNumber(text: string): boolean {
  // Most text holds fewer than 13 digits in all: nothing to tokenise.
  let digitCount = 0;
  for (let i = 0; i < text.length && digitCount < 13; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) digitCount++;
  }
  if (digitCount < 13) return false;
  const words = /[0-9A-Za-z]+/g;
  let run: string[] = [];
  let runEnd = -1;
  for (let match = words.exec(text); ; match = words.exec(text)) {
    const word = match?.[0];
    const digitsOnly = word !== undefined && /^\d+$/.test(word);
    const joined = match !== null && run.length > 0 && match.index === runEnd + 1 && (text[runEnd] === ' ' || text[runEnd] === '-');
    if (!digitsOnly || !joined) {
      if (runHoldsCard(run)) return true;
      run = [];
    }
    if (!match) return false;
    if (digitsOnly) {
      run.push(word);
      runEnd = match.index + word.length;
    }
  }
}

function runHoldsCard(groups: string[]): boolean {
  for (let start = 0; start < groups.length; start++) {
    if (isCardLength(groups[start]) && passesLuhn(groups[start])) return true;
    if (groups[start].length < 3) continue;
    let digits = '';
    for (let end = start; end < groups.length && groups[end].length <= 6; end++) {
      digits += groups[end];
      if (digits.length > 19) break;
      if (end > start && isCardLength(digits) && passesLuhn(digits)) return true;
      // A group under 3 digits only ends a card number (`4111 1111 1111 1`), never continues one.
      if (groups[end].length < 3) break;
    }
  }
  return false;
}

/** A JSON number that is a card number: an integer of 13 to 19 digits passing Luhn (a PAN sent in a money field). */
function isCardNumberValue(value: number): boolean {
  if (!Number.isInteger(value)) return false;
  const digits = BigInt(Math.abs(value)).toString();
  return isCardLength(digits) && passesLuhn(digits);
}

const BARCODE_KEYS = new Set(['gtin', 'gtin8', 'gtin12', 'gtin13', 'gtin14', 'upc', 'upca', 'ean', 'ean8', 'ean13', 'barcode']);

/** A GTIN-8/12/13/14 with its GS1 check digit (weights 3 and 1 from the right, a different sum from Luhn). */
export function isGtin(text: string): boolean {
  if (!/^(?:\d{8}|\d{12,14})$/.test(text)) return false;
  let sum = 0;
  for (let i = 0; i < text.length - 1; i++) sum += (text.charCodeAt(text.length - 2 - i) - 48) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === text.charCodeAt(text.length - 1) - 48;
}

/** The ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function passesAbaChecksum(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

/** Words of a key: `bankDetails`, `bank_details`, `Bank-Details` → bank, details. */
const keyWords = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
const BANK_WORDS = new Set(['bank', 'banking', 'ach', 'routing', 'aba', 'wire', 'remit', 'remittance', 'eft']);
const isBankLikeKey = (key: string) => normalise(key) === 'accountnumber' || keyWords(key).some((word) => BANK_WORDS.has(word));

/** A 9-digit word with a valid ABA checksum next to a 4 to 17 digit word: `021000021 123456789`, `acct 1234567 / rtn 021000021`. */
function containsRoutingAndAccount(text: string): boolean {
  // Digit-only words: a UUID's or hash's digits never form a routing number.
  const numbers = (text.match(/[0-9A-Za-z]+/g) ?? []).filter((word) => /^\d+$/.test(word));
  for (let i = 0; i < numbers.length; i++) {
    if (!passesAbaChecksum(numbers[i])) continue;
    const neighbours = [numbers[i - 1], numbers[i + 1]];
    if (neighbours.some((n) => n !== undefined && n.length >= 4 && n.length <= 17)) return true;
  }
  return false;
}

const present = (value: unknown) => value !== null && value !== undefined && value !== '';

/** A key shown in a path when the key itself holds a card number: its digits masked. */
const maskedKey = (key: string) => key.replace(/\d/g, '*');

interface Frame {
  value: unknown;
  parent: Frame | undefined;
  /** The key or index the value sits at in its parent. */
  at: string | number | undefined;
  /** The key the value sits under, normalised (array items inherit their array's) and as written. */
  key: KeyInfo | undefined;
}

interface KeyInfo {
  name: string;
  bankLike: boolean;
}

/** The JSON path of a frame, built only for a hit (`lines[0].notes`). */
function pathOf(frame: Frame | undefined, last?: string): string {
  const parts: string[] = last === undefined ? [] : [last];
  for (let at = frame; at && at.at !== undefined; at = at.parent) parts.unshift(typeof at.at === 'number' ? `[${at.at}]` : at.at);
  return parts.reduce((path, part) => (part.startsWith('[') || !path ? `${path}${part}` : `${path}.${part}`), '');
}

/** The first raw card or bank credential in a parsed JSON body, or undefined. Iterative: no body depth can overflow the stack. */
export function findRawCredentials(body: unknown): RawCredentialHit | undefined {
  // Keys repeat across array items (every order line has notes): what a key says is worked out once.
  const keys = new Map<string, KeyInfo>();
  const infoOf = (key: string): KeyInfo => {
    let info = keys.get(key);
    if (!info) keys.set(key, (info = { name: normalise(key), bankLike: isBankLikeKey(key) }));
    return info;
  };
  const stack: Frame[] = [{ value: body, parent: undefined, at: undefined, key: undefined }];
  while (stack.length) {
    const frame = stack.pop()!;
    const { value, key } = frame;
    if (typeof value === 'string') {
      if (key && BARCODE_KEYS.has(key.name) && isGtin(value)) continue;
      if (containsCardNumber(value)) return { kind: 'card', path: pathOf(frame) };
      if (key?.bankLike && containsRoutingAndAccount(value)) return { kind: 'bank', path: pathOf(frame) };
      continue;
    }
    if (typeof value === 'number') {
      if (isCardNumberValue(value)) return { kind: 'card', path: pathOf(frame) };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: frame, at: i, key });
      continue;
    }
    const hit = checkMembers(frame, value as Record<string, unknown>, infoOf, stack);
    if (hit) return hit;
  }
  return undefined;
}

/** The rules that look at an object's keys and siblings; queues its members for the value rules. */
function checkMembers(frame: Frame, object: Record<string, unknown>, infoOf: (key: string) => KeyInfo, stack: Frame[]): RawCredentialHit | undefined {
  const entries = Object.entries(object);
  const infos = entries.map(([key]) => infoOf(key));
  const parentName = frame.key?.name ?? '';
  const inCard = CARD_CONTAINERS.has(parentName);
  const inBank = BANK_CONTAINERS.has(parentName);
  const hasRouting = infos.some(({ name }) => BANK_KEYS.has(name) && name !== 'iban');
  const hasCardSibling = infos.some(({ name }) => CVC_SIBLINGS.has(name));
  const queued: Frame[] = [];
  for (let i = 0; i < entries.length; i++) {
    const [key, member] = entries[i];
    const { name } = infos[i];
    if (containsCardNumber(key)) return { kind: 'card', path: pathOf(frame, maskedKey(key)) };
    if (present(member) && typeof member !== 'object') {
      let kind: RawCredentialKind | undefined;
      if (CARD_KEYS.has(name)) kind = 'card';
      else if (BANK_KEYS.has(name)) kind = 'bank';
      else if (name === 'number' && (inCard || hasCardSibling)) kind = 'card';
      else if ((name === 'accountnumber' || name === 'number') && (inBank || hasRouting)) kind = 'bank';
      if (kind) return { kind, path: pathOf(frame, key) };
    }
    queued.push({ value: member, parent: frame, at: key, key: infos[i] });
  }
  for (let i = queued.length - 1; i >= 0; i--) stack.push(queued[i]);
  return undefined;
}
