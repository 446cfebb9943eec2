import fc from 'fast-check';
import { validate } from '../../common/validation';
import { addSongsInput, CANONICAL_ISRC, catalogSongsInput, isrc, normalizeIsrc } from './catalog.inputs';

const ok = (value: string) => isrc.safeParse(value).success;

describe('ISRC rule (decisions §5)', () => {
  it('accepts 12 characters after upper-casing and removing dashes', () => {
    for (const value of ['GBNWR2400001', 'gbnwr2400001', 'GB-NWR-24-00001', 'us-a1b-99-1234-5', 'GB1232400001']) {
      expect({ value, ok: ok(value), canonical: CANONICAL_ISRC.test(normalizeIsrc(value)) }).toEqual({ value, ok: true, canonical: true });
    }
    expect(normalizeIsrc('gb-nwr-24-00001')).toBe('GBNWR2400001');
  });

  it('refuses anything else', () => {
    for (const value of ['', 'GBNWR240000', 'GBNWR24000011', '1BNWR2400001', 'G1NWR2400001', 'GBNWR240000X', 'GBNW_2400001', 'GB NWR2400001', 'ÄBNWR2400001']) {
      expect({ value, ok: ok(value) }).toEqual({ value, ok: false });
    }
  });

  it('agrees with the canonical pattern for any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'AZaz09-_ Q7'.split('')), maxLength: 20 }), (value) => {
        const canonical = CANONICAL_ISRC.test(normalizeIsrc(value));
        return ok(value) === (canonical && value.length <= 40);
      }),
    );
  });
});

describe('catalog input bounds', () => {
  const catalog_id = '00000000-0000-4000-8000-000000000031';
  it('takes page and limit defaults and bounds', () => {
    expect(validate(catalogSongsInput, { catalog_id })).toEqual({ catalog_id, page: 1, limit: 20 });
    expect(validate(catalogSongsInput, { catalog_id, page: 1, limit: 100 })).toMatchObject({ page: 1, limit: 100 });
    expect(() => validate(catalogSongsInput, { catalog_id, limit: 101 })).toThrow('limit: must be at most 100');
    expect(() => validate(catalogSongsInput, { catalog_id, limit: 0 })).toThrow('limit: must be at least 1');
    expect(() => validate(catalogSongsInput, { catalog_id, page: 0 })).toThrow('page: must be at least 1');
  });

  it('refuses an empty songs array and names the bad element', () => {
    expect(() => validate(addSongsInput, { songs: [] })).toThrow('songs: must not be empty');
    expect(() => validate(addSongsInput, { songs: [{ catalog_id, isrc: 'GBNWR2400001' }, { catalog_id: 'x', isrc: 'GBNWR2400001' }] })).toThrow(
      'songs[1].catalog_id: must be a UUID',
    );
  });
});
