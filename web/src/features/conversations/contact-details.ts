/**
 * Whether a message's text holds contact details the server masks for the other party
 * before the hire: the finder of server/src/domain/contacts.rs, told here because the
 * contract says `contacts_masked` only of what the reader sees, never of what the other
 * party sees of the reader's own words. North American phone numbers (ten digits, eleven
 * after a 1, or a local 3-4) and email addresses, plain or disguised ("jane at gmail dot
 * com"); prices, dates, postal codes and civic numbers are not.
 */
export function hasContactDetails(text: string): boolean {
  const chars = [...text];
  return hasPhone(chars) || hasEmail(chars);
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlphanumeric = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const isSpace = (c: string | undefined) => c !== undefined && /\s/u.test(c);
const PHONE_SEPARATOR = /[ \-.()/_\u00a0\u2010-\u2015]/;
/** At most this many separators in a row between two groups of one number. */
const MAX_SEPARATORS = 3;

function hasPhone(chars: string[]): boolean {
  let i = 0;
  while (i < chars.length) {
    const before = chars[i - 1];
    if (!isDigit(chars[i]) || isAlphanumeric(before) || before === '@') {
      i += 1;
      continue;
    }
    const { groups, end } = digitGroups(chars, i);
    const sizes = groups.map(([start, stop]) => stop - start);
    const found = groups.some(([start], g) => phoneAt(sizes.slice(g), chars[start] === '1'));
    if (found) return true;
    i = Math.max(end, i + 1);
  }
  return false;
}

/** The groups of digits from `start`, separated by short runs of separators. */
function digitGroups(chars: string[], start: number) {
  const groups: [number, number][] = [];
  let i = start;
  for (;;) {
    const groupStart = i;
    while (isDigit(chars[i])) i += 1;
    groups.push([groupStart, i]);
    let j = i;
    while (j < chars.length && j - i < MAX_SEPARATORS && PHONE_SEPARATOR.test(chars[j]!)) j += 1;
    if (j === i || !isDigit(chars[j])) return { groups, end: i };
    i = j;
  }
}

/** Whether some of `sizes`, from the first, make one phone number. */
function phoneAt(sizes: number[], leadingOne: boolean): boolean {
  for (let take = Math.min(sizes.length, 11); take >= 1; take -= 1) {
    if (isPhoneShape(sizes.slice(0, take), leadingOne)) return true;
  }
  return false;
}

/** 10 digits as 10, 3-7, 6-4, 3-3-4 or in ones and twos, the same after a 1, or a local 3-4. */
function isPhoneShape(sizes: number[], leadingOne: boolean): boolean {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let national: number[];
  if (total === 7) return sizes.join() === '3,4';
  if (total === 10) national = sizes;
  else if (total === 11 && sizes.length === 1) return leadingOne;
  else if (total === 11 && sizes[0] === 1 && leadingOne) national = sizes.slice(1);
  else return false;
  return (
    national.every((size) => size <= 2) || ['10', '3,7', '6,4', '3,3,4'].includes(national.join())
  );
}

function hasEmail(chars: string[]): boolean {
  return chars.some((_, i) => {
    const marker = atMarker(chars, i);
    return (
      marker !== null && localPartBefore(chars, i) && domainEnds(chars, marker.end, marker.plain)
    );
  });
}

/** An "at" at `i` ("@", "(at)", " at ", "arobase"): where it ends, and whether it was "@". */
function atMarker(chars: string[], i: number): { end: number; plain: boolean } | null {
  if (chars[i] === '@' || chars[i] === '\uff20') return { end: i + 1, plain: true };
  for (const word of ['at', 'arobase']) {
    const end = markedWord(chars, i, word);
    if (end !== null) return { end, plain: false };
  }
  return null;
}

const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/** Where `word` ends when written at `i` as a word of its own (spaces around) or in brackets. */
function markedWord(chars: string[], i: number, word: string): number | null {
  const close = CLOSING[chars[i] ?? ''];
  const from = close ? i + 1 : i;
  const candidate = chars.slice(from, from + word.length).join('');
  if (candidate.toLowerCase() !== word) return null;
  const after = from + word.length;
  if (close) return chars[after] === close ? after + 1 : null;
  return isSpace(chars[i - 1]) && isSpace(chars[after]) ? after : null;
}

const isLocalChar = (c: string | undefined) => isAlphanumeric(c) || /[._%+\-']/.test(c ?? ' ');

/** Whether a local part stands before the at-marker at `marker` (a space between allowed). */
function localPartBefore(chars: string[], marker: number): boolean {
  let end = marker;
  while (end > 0 && isSpace(chars[end - 1]) && marker - end < 2) end -= 1;
  let start = end;
  while (start > 0 && isLocalChar(chars[start - 1])) start -= 1;
  while (start < end && /[.\-']/.test(chars[start]!)) start += 1;
  return chars.slice(start, end).some(isAlphanumeric);
}

/** Endings a disguised address must have to count ("meet at home dot depot" does not). */
const KNOWN_ENDINGS = [
  'com',
  'ca',
  'net',
  'org',
  'fr',
  'info',
  'biz',
  'io',
  'me',
  'co',
  'us',
  'qc',
  'quebec',
];

/** Whether a domain of two labels or more (the last one letters) follows `from`. */
function domainEnds(chars: string[], from: number, plain: boolean): boolean {
  let i = skipSpaces(chars, from);
  const labels: string[] = [];
  for (;;) {
    const start = i;
    while (isAlphanumeric(chars[i]) || chars[i] === '-') i += 1;
    if (i === start) break;
    labels.push(chars.slice(start, i).join('').toLowerCase());
    const next = dotAfter(chars, i);
    if (next === null || !isAlphanumeric(chars[next])) break;
    i = next;
  }
  const ending = labels.at(-1) ?? '';
  const letters = /^\p{L}{2,10}$/u.test(ending);
  return labels.length >= 2 && letters && (plain || KNOWN_ENDINGS.includes(ending));
}

/** Where the label after a dot ("." or " dot ", "(dot)", " point ") following `i` starts. */
function dotAfter(chars: string[], i: number): number | null {
  // A plain dot joins labels directly: one followed by a space ends a sentence.
  if (chars[i] === '.') return i + 1;
  const spaced = skipSpaces(chars, i);
  for (const word of ['dot', 'point']) {
    const end = markedWord(chars, spaced, word);
    if (end !== null) return skipSpaces(chars, end);
  }
  return null;
}

/** `i` moved past up to two white-space characters. */
function skipSpaces(chars: string[], i: number): number {
  let at = i;
  while (at - i < 2 && isSpace(chars[at])) at += 1;
  return at;
}
