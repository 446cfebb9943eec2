import { AppError } from '../../common/errors';
import { validate } from '../../common/validation';
import { discoverInput, platformSearchInput, trackStatsInput } from './research.inputs';

const fieldsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as AppError).details?.map((d) => d.field);
  }
  return [];
};

describe('research inputs', () => {
  it('expands source=all, de-duplicates sources and normalizes the ISRC', () => {
    const v = validate(trackStatsInput, { isrc: 'gb-nwr-24-00001', source: 'all' });
    expect(v.isrc).toBe('GBNWR2400001');
    expect(v.source).toEqual(['platform_a', 'platform_b', 'platform_c', 'platform_d']);
    expect(v.limit).toBe(20);
    expect(validate(trackStatsInput, { isrc: 'GBNWR2400001', source: 'platform_b, platform_b,platform_a' }).source).toEqual(['platform_b', 'platform_a']);
  });

  it('names the field of each broken rule', () => {
    expect(fieldsOf(() => validate(trackStatsInput, { source: 'all' }))).toEqual(['isrc']);
    expect(fieldsOf(() => validate(trackStatsInput, { isrc: 'GBNWR2400001', stats_track_id: 'x', source: 'all' }))).toEqual(['stats_track_id']);
    expect(fieldsOf(() => validate(discoverInput, { sp_monthly_listeners_min: 2, sp_monthly_listeners_max: 1 }))).toEqual(['sp_monthly_listeners_min']);
    expect(fieldsOf(() => validate(platformSearchInput, { q: ' ', type: 'artist' }))).toEqual(['q']);
  });

  it('upper-cases country and market but keeps from_token', () => {
    expect(validate(discoverInput, { country: 'gb' }).country).toBe('GB');
    expect(validate(platformSearchInput, { q: 'x', type: 'artist', market: 'de' }).market).toBe('DE');
    expect(validate(platformSearchInput, { q: 'x', type: 'artist', market: 'from_token' }).market).toBe('from_token');
  });
});
