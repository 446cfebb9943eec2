import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegArgs } from './encoder';
import { COMPOSITIONS, findComposition, propsSchema } from './compositions';
import { AssetWriter, mediaFields, quote, wrap } from './compositions/composition';
import { MEDIA_DEMUXERS } from './compositions/media';
import { timeLines } from './compositions/lyric-video';
import { toKnexBindings } from './queue';
import { UrlSigner } from './signed-url';

/** A 1×1 red PNG. */
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

describe('render building blocks', () => {
  it('rewrites pg-boss $n placeholders for knex, repeating values where a placeholder repeats', () => {
    expect(toKnexBindings('select $1::uuid, $2, $1 where x ? y', ['a', undefined])).toEqual({
      sql: 'select ?::uuid, ?, ? where x \\? y',
      bindings: ['a', null, 'a'],
    });
    // An array is one PostgreSQL array value, not a knex list.
    expect(toKnexBindings('select unnest($1::text[])', [['0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11', 'a"b\\c']]).bindings).toEqual(['{"0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11","a\\"b\\\\c"}']);
  });

  it('signs links that verify until they expire, and refuses tampering', () => {
    const signer = new UrlSigner('secret-secret-secret', 'https://media.example.test', 60);
    const now = Date.UTC(2026, 0, 1);
    const { url, expiresAt } = signer.sign('0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11.mp4', now);
    expect(expiresAt.toISOString()).toBe('2026-01-01T00:01:00.000Z');
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe('https://media.example.test/media/renders/0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11.mp4');
    const expires = u.searchParams.get('expires');
    const signature = u.searchParams.get('signature');
    expect(signer.verify('0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11.mp4', expires, signature, now + 59_000)).toBe('ok');
    expect(signer.verify('0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11.mp4', expires, signature, now + 61_000)).toBe('expired');
    expect(signer.verify('0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11.webm', expires, signature, now)).toBe('invalid');
    expect(signer.verify('0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11.mp4', String(Number(expires) + 1), signature, now)).toBe('invalid');
    expect(new UrlSigner('another-secret-value', 'x', 60).verify('0b9c1f8e-1a4f-4b7c-9a70-5a0b3c7e9d11.mp4', expires, signature, now)).toBe('invalid');
  });

  it('asks ffmpeg for exactly the frames, size and codec, keeping odd sizes exact', () => {
    const graph = { background: '0x000000', inputs: [], filter: '[0:v]null[v]', audio: false };
    const even = ffmpegArgs({ graph, spec: { width: 64, height: 48, fps: 24, durationInFrames: 10 }, codec: 'h264', output: '/tmp/x.mp4' });
    expect(even.join(' ')).toContain('color=c=0x000000:s=64x48:r=24,format=rgb24');
    expect(even.join(' ')).toContain('-frames:v 10');
    expect(even.join(' ')).toContain('format=yuv420p');
    expect(even.join(' ')).toContain('-c:v libx264');
    expect(even).toContain('-an');
    const odd = ffmpegArgs({ graph, spec: { width: 65, height: 33, fps: 5, durationInFrames: 1 }, codec: 'h265', output: '/tmp/x.mp4' });
    expect(odd.join(' ')).toContain('format=yuv444p');
    expect(odd.join(' ')).toContain('-c:v libx265');
    expect(ffmpegArgs({ graph, spec: { width: 65, height: 33, fps: 5, durationInFrames: 1 }, codec: 'vp9', output: '/tmp/x.webm' }).join(' ')).toContain('-c:v libvpx-vp9');
  });

  it('hands ffmpeg every file of every composition with its demuxer forced, over the file protocol only, decoded once', async () => {
    const spec = { width: 64, height: 48, fps: 10, durationInFrames: 10 };
    let files = 0;
    for (const composition of COMPOSITIONS) {
      // The example with every media prop filled (build writes the bytes; it does not read them).
      const props: Record<string, unknown> = { ...composition.example };
      for (const field of mediaFields(composition.props)) props[field.path[0] as string] = `data:${field.types[0]};base64,${ONE_PIXEL_PNG}`;
      const graph = await composition.build(props, spec, new AssetWriter(mkdtempSync(join(tmpdir(), 'args-')), { maxImageSide: 4096 }));
      const args = ffmpegArgs({ graph, spec, codec: 'h264', output: '/tmp/x.mp4' });
      expect(args).not.toContain('-loop');
      args.forEach((arg, i) => {
        if (arg !== '-i') return;
        const input = args[i + 1];
        if (args[i - 2] === '-f' && args[i - 1] === 'lavfi') {
          // A generated source: a filter graph of our own, never a file.
          expect(input).toMatch(/^color=/);
          return;
        }
        files += 1;
        // An image's decoder is also told the most pixels it may produce (RENDER_MAX_IMAGE_SIDE²).
        const image = args[i - 2] === '-max_pixels';
        const before = args.slice(i - (image ? 6 : 4), i);
        expect({ input, before }).toEqual({
          input: expect.stringMatching(/^file:\//),
          before: ['-f', expect.any(String), '-protocol_whitelist', 'file', ...(image ? ['-max_pixels', String(4096 * 4096)] : [])],
        });
        expect(MEDIA_DEMUXERS).toContain(before[1]);
        expect(image).toBe(before[1].endsWith('_pipe'));
      });
    }
    expect(files).toBe(2);
  });

  it('wraps text on spaces and splits words longer than a line', () => {
    expect(wrap('one two three four', 9)).toBe('one two\nthree\nfour');
    expect(wrap('abcdefghij', 4)).toBe('abcd\nefgh\nij');
    expect(() => quote("it's")).toThrow();
  });

  it('times plain lyric lines over the whole duration, in order, without gaps', () => {
    expect(timeLines(['a', 'b', 'c'], 10)).toEqual([
      { text: 'a', startFrame: 0, endFrame: 3 },
      { text: 'b', startFrame: 3, endFrame: 6 },
      { text: 'c', startFrame: 6, endFrame: 10 },
    ]);
    expect(timeLines(['a', 'b'], 1).every((l) => l.endFrame > l.startFrame)).toBe(true);
  });

  it('validates composition props with zod and publishes them as JSON Schema', () => {
    const lyric = findComposition('lyric-video')!;
    expect(lyric.props.safeParse({ lines: [] }).success).toBe(false);
    expect(lyric.props.safeParse({ lines: [{ text: 'x', startFrame: 5, endFrame: 5 }] }).success).toBe(false);
    expect(lyric.props.safeParse(lyric.example).success).toBe(true);
    const social = findComposition('social-post')!;
    expect(social.props.safeParse({ caption: 'x', backgroundImage: 'http://example.com/a.png' }).success).toBe(false);
    // A PNG's signature alone is not an image: its header (IHDR, the size) must follow.
    expect(social.props.safeParse({ caption: 'x', backgroundImage: 'data:image/png;base64,iVBORw0KGgo=' }).success).toBe(false);
    expect(social.props.safeParse({ caption: 'x', backgroundImage: `data:image/png;base64,${ONE_PIXEL_PNG}` }).success).toBe(true);
    expect(propsSchema(findComposition('title-card')!)).toMatchObject({ type: 'object', required: ['title'], additionalProperties: false });
  });
});
