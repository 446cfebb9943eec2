import fc from 'fast-check';

/**
 * Hostile values for the fuzz suite (hostile-input.int.test.ts): wrong types, huge and
 * control-character strings, NUL, unpaired surrogates, malformed percent-encodings, deep and wide
 * JSON, injection strings, and the leak check every answer goes through.
 */

export const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE accounts; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5)',
  "1' UNION SELECT hash FROM api_keys --",
  '$1',
  '?',
  '%s%s%s%n',
  '{{7*7}}',
  '${7*7}',
  '#{7*7}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '{"$gt": ""}',
  '__proto__',
  'constructor',
  'prototype',
  '\\',
  '\\u0000',
  '%',
  '%00',
  '%FF',
  '\r\nX-Injected: 1',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '9007199254740993',
  '-2147483649',
  '０１２３',
  'ǅ',
  '🎵🎶',
  '\u202etxt.exe',
  '\ufeff',
  '\uffff',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'agent+x@example.test',
  'a@b',
  '00000000-0000-0000-0000-000000000000',
  'GBNWR2400001',
];

const controlString = fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 });

/** A string a client might send on purpose to break something. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...INJECTIONS), weight: 4 },
  { arbitrary: controlString, weight: 2 },
  { arbitrary: fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 })).map(([a, b]) => `${a}\u0000${b}`), weight: 3 },
  { arbitrary: fc.constantFrom('\ud800', '\udfff', 'a\ud83d', '\ude00b', '\udbff\udbff'), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', '\t', '0', '-1', '1.5', 'true', 'null', '[]', '{}', 'undefined'), weight: 2 },
  { arbitrary: fc.constantFrom(300, 5_000, 70_000).map((n) => 'x'.repeat(n)), weight: 1 },
);

/** A PNG header claiming a size far over any bound (no pixel data follows): a pixel bomb in 33 bytes. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 6, 0, 0, 0], 16);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

/** Media props of a render (issue 24, 30): files that reference other files, mislabelled bytes, pixel bombs, each under a declared type. */
export const hostileMediaProps: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    prop: fc.constantFrom('backgroundImage', 'audio'),
    type: fc.constantFrom('image/png', 'image/jpeg', 'audio/mpeg', 'audio/wav', 'audio/ogg'),
    bytes: fc.constantFrom(
      Buffer.from('#EXTM3U\n#EXTINF:2.0,\n../../00000000-0000-4000-8000-000000000000.mp4\n#EXT-X-ENDLIST\n'),
      Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.from('#EXTM3U\n#EXTINF:1,\n/etc/passwd\n')]),
      Buffer.from("ffconcat version 1.0\nfile '/etc/passwd'\n"),
      Buffer.from('v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 5004 RTP/AVP 0\n'),
      pngHeader(100_000, 100_000),
      pngHeader(0, 0),
      Buffer.from([0xff, 0xd8, 0xff]),
      Buffer.alloc(0),
    ),
  })
  .map(({ prop, type, bytes }) => ({ caption: 'fuzz', [prop]: `data:${type};base64,${bytes.toString('base64')}` }));

/** Any JSON value of the wrong type or shape, or a hostile string. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 6 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, 1e308, -1, 0, 0.5, -0), weight: 2 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.array(hostileString, { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }), weight: 1 },
  { arbitrary: fc.constantFrom(JSON.parse('{"__proto__":{"admin":true}}'), { constructor: { prototype: { admin: true } } }, [[[[[]]]]]), weight: 1 },
);

/** Percent-encodings that do not decode to UTF-8, sent as they are. */
export const MALFORMED_ENCODINGS = ['%FF', '%', '%zz', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%F8%88%80%80%80', '%%', '%u0041', '%0'];

/** A value as it goes into a URL: percent-encoded, or (for malformed encodings) raw. */
export const urlPiece: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileString.map(encodePiece), weight: 5 },
  { arbitrary: fc.constantFrom(...MALFORMED_ENCODINGS), weight: 3 },
  { arbitrary: fc.constantFrom('..', '.', '%2F', '%2e%2e%2f', 'a%2Fb', '%00', '%0d%0a', '%20', '+'), weight: 2 },
);

export function encodePiece(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // An unpaired surrogate cannot be encoded: send its CESU-8 bytes, invalid UTF-8.
    return '%ED%A0%80';
  }
}

/** JSON text nested `depth` levels deep, as raw text (building it as an object would overflow the client). */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A JSON value's raw text for a body member: deep, wide, or a plain hostile value. */
export const rawJsonValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? 'null'), weight: 8 },
  { arbitrary: fc.tuple(fc.constantFrom(31, 32, 33, 200, 5_000, 20_000), fc.constantFrom('array' as const, 'object' as const)).map(([d, k]) => deepJson(d, k)), weight: 2 },
  { arbitrary: fc.constantFrom(2_000, 20_000).map((n) => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`), weight: 1 },
  { arbitrary: fc.constantFrom(2_000).map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":"\\u0000"`).join(',')}}`), weight: 1 },
);

/** Whole request bodies that are not what a route expects. */
export const rawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{"a":', "{'a':1}", '[1,2', '', ' ', 'null', '"str"', '42', 'true', '[]', '\ufeff{}', '{"a":1}{"b":2}', '{"a":1,"a":2}', 'NaN', '{"__proto__":{"admin":true}}'),
  rawJsonValue,
  hostileString.map((s) => JSON.stringify(s)),
);

export const CONTENT_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'application/json; charset=nonsense',
  'application/vnd.example+json',
  'APPLICATION/JSON',
  'application/json, text/plain',
  ';;;',
  'application/',
  'json',
];

/** Headers Node lets a client send: printable ASCII only. */
export const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

// Markers of what must never reach a client: stack frames, filesystem paths, SQL errors, driver names.
const LEAK_PATTERNS: [string, RegExp][] = [
  ['stack frame', /\bat (async )?[\w$.<>[\] ]+ \(/],
  ['stack frame', /\.(ts|js|mjs|cjs):\d+:\d+/],
  ['filesystem path', /(^|[\s"'(=])\/(work|home|root|usr|opt|tmp|var|srv)\/[\w.-]/],
  ['filesystem path', /node_modules/],
  ['filesystem path', /[A-Za-z]:\\\\(Users|Windows)/],
  ['SQL error', /syntax error at or near/i],
  ['SQL error', /violates (unique|foreign key|not-null|check) constraint/i],
  ['SQL error', /duplicate key value/i],
  ['SQL error', /invalid input syntax for/i],
  ['SQL error', /invalid byte sequence/i],
  ['SQL error', /unsupported Unicode escape/i],
  ['SQL error', /\b(relation|column) "\w+" (does not exist|of relation)/i],
  ['SQL error', /SQLSTATE|\bpg_catalog\b/i],
  ['SQL text', /\b(select|update|delete)\b[^"]{0,200}\bfrom\s+"?\w+"?\s+as\s+"?[a-z]\d*"?/i],
  ['SQL text', /\binsert into "?\w+"? \(/i],
  ['driver internals', /MikroORM|DriverException|knex|node-postgres|QueryFailed|TypeError|RangeError|ReferenceError|Maximum call stack/],
];

/**
 * What in `text` leaks a stack, a path, SQL or a secret, once every string the request itself
 * sent (raw, percent-encoded and JSON-escaped) is taken out: an echoed input is not a leak.
 */
export function leaks(text: string, sent: readonly string[], secrets: readonly string[]): string[] {
  let rest = text;
  for (const s of [...sent].sort((a, b) => b.length - a.length)) {
    if (s.length < 3) continue;
    for (const form of new Set([s, JSON.stringify(s).slice(1, -1), encodePiece(s)])) rest = rest.split(form).join('');
  }
  const found = LEAK_PATTERNS.filter(([, re]) => re.test(rest)).map(([what, re]) => `${what} (${re.source})`);
  for (const secret of secrets) if (secret && rest.includes(secret)) found.push(`secret ${secret.slice(0, 6)}…`);
  return found;
}
