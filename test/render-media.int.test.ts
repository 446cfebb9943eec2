import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { as } from './demo';
import { createTestApp, TestApp } from './app';
import { renderEnv, startWorker, waitForRun } from './support/render';
import { COMPOSITIONS, findComposition, propsSchema } from '../src/jobs/compositions';
import { AssetWriter, mediaFields } from '../src/jobs/compositions/composition';
import express from 'express';
import supertest from 'supertest';
import { encode, EncodeError, ffmpegPath, ffmpegStatus, ffprobePath, resolveFfmpeg } from '../src/jobs/encoder';
import { healthRouter } from '../src/http/health';
import { RenderWorker } from '../src/modules/render/render.worker';

const run = promisify(execFile);

/** A file made by ffmpeg from lavfi sources (`args` before the output name). */
async function makeMedia(args: string[], ext: string): Promise<Buffer> {
  const file = join(mkdtempSync(join(tmpdir(), 'media-fixture-')), `f.${ext}`);
  await run(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args, file]);
  return readFile(file);
}
const dataUrl = (type: string, bytes: Buffer | string) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
// rgb24 at the source: a colour source negotiated to 4:2:0 rounds odd sizes down.
const flatPng = (w: number, h: number) => makeMedia(['-f', 'lavfi', '-i', `color=c=0x336699:s=${w}x${h},format=rgb24`, '-frames:v', '1'], 'png');
const flatJpeg = (w: number, h: number) => makeMedia(['-f', 'lavfi', '-i', `color=c=0x336699:s=${w}x${h},format=rgb24`, '-frames:v', '1', '-q:v', '31'], 'jpg');

/** Files that make ffmpeg open other files (or the network) when it is left to guess the format. */
function referencingContainers(target: string): Record<string, Buffer> {
  const playlist = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:2.0,\n${target}\n#EXT-X-ENDLIST\n`;
  return {
    'HLS playlist': Buffer.from(playlist),
    'HLS playlist behind an ID3 tag': Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), Buffer.from(playlist)]),
    'ffconcat script': Buffer.from(`ffconcat version 1.0\nfile '${target}'\n`),
    'SDP session': Buffer.from('v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 5004 RTP/AVP 0\n'),
    'DASH manifest': Buffer.from(`<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><Period><AdaptationSet><Representation id="1" bandwidth="1"><BaseURL>${target}</BaseURL></Representation></AdaptationSet></Period></MPD>`),
    'MP4 (data references)': Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]),
  };
}

/** The victim's finished video seen from a job's scratch directory (RENDER_STORAGE_DIR/.tmp/<run>-<attempt>/). */
const fromScratch = (runId: string) => `../../${runId}.mp4`;

describe('render media inputs name nothing but themselves (real PostgreSQL, real ffmpeg)', () => {
  let t: TestApp;
  let worker: RenderWorker;
  let victimRunId: string;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv() });
    worker = await startWorker(t, 1);
    // Another account's finished video with a soundtrack: what the attack read back.
    const audio = await makeMedia(['-f', 'lavfi', '-i', 'sine=frequency=1234:duration=1'], 'wav');
    const victim = await t.http().post('/api/video/render').set(as.sam).send({
      compositionId: 'social-post', inputProps: { caption: 'Victim', audio: dataUrl('audio/wav', audio) }, width: 32, height: 32, fps: 10, durationInFrames: 10,
    });
    expect(victim.status).toBe(200);
    victimRunId = victim.body.runId;
    expect((await waitForRun(t, as.sam, victimRunId, ['COMPLETED', 'FAILED'])).status).toBe('COMPLETED');
  });
  afterAll(async () => {
    await worker?.stop(1000);
    await t?.close();
  });

  const runCount = async () => Number((await t.orm.em.getConnection().execute('select count(*)::int as n from render_runs'))[0].n);
  const render = (inputProps: Record<string, unknown>, compositionId = 'social-post', headers = as.otto) =>
    t.http().post('/api/video/render').set(headers).send({ compositionId, inputProps, width: 32, height: 32, fps: 10, durationInFrames: 10 });

  it('refuses the cross-tenant attack: an HLS playlist sent as audio/mpeg naming another account\'s video is a 400 naming the prop', async () => {
    const before = await runCount();
    const playlist = referencingContainers(fromScratch(victimRunId))['HLS playlist'];
    const res = await render({ caption: 'Attack', audio: dataUrl('audio/mpeg', playlist) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_USER_INPUT');
    expect(res.body.details).toEqual([{ field: 'inputProps.audio', message: 'must be audio/mpeg: its bytes are not' }]);
    const gql = await t.graphql('mutation($p: JSONObject) { renderVideo(input: { compositionId: "social-post", inputProps: $p, width: 32, height: 32 }) { id } }', { p: { caption: 'Attack', audio: dataUrl('audio/mpeg', playlist) } }, as.otto);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'inputProps.audio' }] });
    expect(await runCount()).toBe(before);
  });

  it('refuses a playlist, a concat script and every other referencing container in every media prop of every composition, under every declared type', async () => {
    const before = await runCount();
    const tried: string[] = [];
    for (const composition of COMPOSITIONS) {
      // Every prop the published schema calls a data URL is a media field the checks know of.
      const published = Object.entries((propsSchema(composition).properties ?? {}) as Record<string, { description?: string }>)
        .filter(([, p]) => /data URL/.test(p.description ?? ''))
        .map(([name]) => name);
      const fields = mediaFields(composition.props);
      expect(fields.map((f) => f.path.join('.')).sort()).toEqual(published.sort());
      for (const field of fields) {
        for (const type of field.types) {
          for (const [what, bytes] of Object.entries(referencingContainers(fromScratch(victimRunId)))) {
            const res = await render({ ...composition.example, [field.path[0]]: dataUrl(type, bytes) }, composition.id);
            const name = `${composition.id}.${field.path.join('.')} as ${type}: ${what}`;
            tried.push(name);
            expect({ name, status: res.status, fields: res.body.details?.map((d: { field: string }) => d.field) }).toEqual({ name, status: 400, fields: [`inputProps.${field.path.join('.')}`] });
          }
        }
      }
    }
    // social-post: backgroundImage (2 types) and audio (4 types), 6 containers each.
    expect(tried.length).toBeGreaterThanOrEqual(36);
    expect(await runCount()).toBe(before);
  });

  it('checks the bytes against the declared type, and accepts real media of every declared type', async () => {
    const png = await flatPng(32, 24);
    const jpeg = await flatJpeg(32, 24);
    const wav = await makeMedia(['-f', 'lavfi', '-i', 'sine=duration=0.2'], 'wav');
    const mp3 = await makeMedia(['-f', 'lavfi', '-i', 'sine=duration=0.2', '-c:a', 'libmp3lame'], 'mp3');
    const mp3Id3 = await makeMedia(['-f', 'lavfi', '-i', 'sine=duration=0.2', '-c:a', 'libmp3lame', '-metadata', 'title=Tidal', '-id3v2_version', '3'], 'mp3');
    const ogg = await makeMedia(['-f', 'lavfi', '-i', 'sine=duration=0.2', '-c:a', 'libvorbis'], 'ogg');
    const opus = await makeMedia(['-f', 'lavfi', '-i', 'sine=duration=0.2', '-c:a', 'libopus'], 'ogg');
    const theora = await makeMedia(['-f', 'lavfi', '-i', 'testsrc=s=32x24', '-frames:v', '2', '-c:v', 'libtheora'], 'ogg');
    for (const [prop, type, bytes] of [
      ['backgroundImage', 'image/png', jpeg],
      ['backgroundImage', 'image/jpeg', png],
      ['backgroundImage', 'image/png', png.subarray(0, 8)],
      ['audio', 'audio/mpeg', wav],
      ['audio', 'audio/wav', ogg],
      ['audio', 'audio/ogg', mp3],
      // An Ogg file of video only has no soundtrack to mix: it is not audio/ogg.
      ['audio', 'audio/ogg', theora],
      ['audio', 'audio/mpeg', png],
    ] as const) {
      const res = await render({ caption: 'x', [prop]: dataUrl(type, bytes) });
      expect({ type, status: res.status, details: res.body.details }).toEqual({ type, status: 400, details: [{ field: `inputProps.${prop}`, message: `must be ${type}: its bytes are not` }] });
    }
    for (const [prop, type, bytes] of [
      ['backgroundImage', 'image/png', png],
      ['backgroundImage', 'image/jpeg', jpeg],
      ['audio', 'audio/wav', wav],
      ['audio', 'audio/x-wav', wav],
      ['audio', 'audio/mpeg', mp3],
      ['audio', 'audio/mpeg', mp3Id3],
      ['audio', 'audio/ogg', ogg],
      ['audio', 'audio/ogg', opus],
    ] as const) {
      const res = await render({ caption: 'x', [prop]: dataUrl(type, bytes) });
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
    }
  });

  it('refuses a pixel bomb (an image over RENDER_MAX_IMAGE_SIDE) with a 400 naming the prop, and accepts images at the bound', async () => {
    const before = await runCount();
    for (const [what, bytes, type] of [
      ['PNG 4097×16', await flatPng(4097, 16), 'image/png'],
      ['PNG 16×4097', await flatPng(16, 4097), 'image/png'],
      ['PNG 5000×5000', await flatPng(5000, 5000), 'image/png'],
      ['JPEG 4097×4097', await flatJpeg(4097, 4097), 'image/jpeg'],
    ] as const) {
      const res = await render({ caption: 'Bomb', backgroundImage: dataUrl(type, bytes) });
      expect({ what, status: res.status, code: res.body.code, fields: res.body.details?.map((d: { field: string }) => d.field) }).toEqual({ what, status: 400, code: 'BAD_USER_INPUT', fields: ['inputProps.backgroundImage'] });
      expect(res.body.details[0].message).toMatch(/^is \d+×\d+ pixels; images may be at most 4096×4096$/);
    }
    const gql = await t.graphql('mutation($p: JSONObject) { renderVideo(input: { compositionId: "social-post", inputProps: $p, width: 32, height: 32 }) { id } }', { p: { caption: 'Bomb', backgroundImage: dataUrl('image/png', await flatPng(5000, 5000)) } }, as.otto);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', details: [{ field: 'inputProps.backgroundImage', message: 'is 5000×5000 pixels; images may be at most 4096×4096' }] });
    expect(await runCount()).toBe(before);
    for (const bytes of [await flatPng(4096, 4096), await flatJpeg(4096, 4096)]) {
      const res = await render({ caption: 'At the bound', backgroundImage: dataUrl(bytes[0] === 0x89 ? 'image/png' : 'image/jpeg', bytes) });
      expect(res.status).toBe(200);
    }
  });

  it('renders a large still on every frame, decoded once (the last frame still shows the image)', async () => {
    const res = await render({ caption: 'Still', backgroundColor: '#000000', backgroundImage: dataUrl('image/png', await flatPng(4000, 4000)) }, 'social-post', as.nora);
    expect(res.status).toBe(200);
    const done = await waitForRun(t, as.nora, res.body.runId, ['COMPLETED', 'FAILED'], 60_000);
    expect(done.status).toBe('COMPLETED');
    const file = join(t.config.render.storageDir, `${done.id}.mp4`);
    // The top-left 4×4 pixels of the first and of the last frame, as RGB: the image's colour, not the black background.
    for (const frame of [0, 9]) {
      const { stdout } = await run(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-i', file, '-vf', `select=eq(n\\,${frame}),crop=4:4:0:0`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
      const [r, g, b] = [stdout[0], stdout[1], stdout[2]];
      expect({ frame, near: Math.abs(r - 0x33) < 24 && Math.abs(g - 0x66) < 24 && Math.abs(b - 0x99) < 24 }).toEqual({ frame, near: true });
    }
  });

  describe('the worker, for bytes that never went through validation', () => {
    it('cannot be made to open another file: the encoder forces each input\'s demuxer', async () => {
      const scratch = join(t.config.render.storageDir, '.tmp', 'attack-1');
      mkdirSync(scratch, { recursive: true });
      const spec = { width: 32, height: 32, fps: 10, durationInFrames: 10 };
      const containers = referencingContainers(fromScratch(victimRunId));
      // The fixture is a real attack: ffmpeg left to guess the format mixes the victim's soundtrack in.
      const sniffed = join(scratch, 'sniffed.mp3');
      await new AssetWriter(scratch).file('mp3', containers['HLS playlist']).then((p) =>
        run(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', '-i', p, '-vn', '-c:a', 'libmp3lame', sniffed]));
      const { stdout: sniffedStreams } = await run(ffprobePath(), ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', sniffed]);
      expect(sniffedStreams.trim()).toBe('audio');
      // Built from props that skipped validation (build does not check them): every referencing container fails to encode.
      const social = findComposition('social-post')!;
      for (const [what, bytes] of Object.entries(containers)) {
        for (const [prop, type] of [['audio', 'audio/mpeg'], ['audio', 'audio/ogg'], ['backgroundImage', 'image/png']] as const) {
          const props = { ...(social.example as Record<string, unknown>), [prop]: dataUrl(type, bytes) };
          const graph = await social.build(props, spec, new AssetWriter(scratch));
          const output = join(scratch, `out-${prop}.mp4`);
          const outcome = await encode({ ffmpegPath: ffmpegPath(), graph, spec, codec: 'h264', output, signal: new AbortController().signal }).then(
            () => 'encoded',
            (error: unknown) => (error instanceof EncodeError ? 'refused' : String(error)),
          );
          expect({ what, type, outcome }).toEqual({ what, type, outcome: 'refused' });
        }
      }
    });
  });

  describe('the worker, for an image whose header lied or that skipped validation', () => {
    it('has the decoder refuse a picture over RENDER_MAX_IMAGE_SIDE (ffmpeg max_pixels)', async () => {
      const scratch = join(t.config.render.storageDir, '.tmp', 'bomb-1');
      mkdirSync(scratch, { recursive: true });
      const spec = { width: 16, height: 16, fps: 10, durationInFrames: 2 };
      const social = findComposition('social-post')!;
      const props = { caption: 'x', backgroundColor: '#000000', textColor: '#FFFFFF', backgroundImage: dataUrl('image/png', await flatPng(32, 24)) };
      const outcome = async (maxImageSide: number) => {
        const graph = await social.build(props, spec, new AssetWriter(scratch, { maxImageSide }));
        return encode({ ffmpegPath: ffmpegPath(), graph, spec, codec: 'h264', output: join(scratch, `out-${maxImageSide}.mp4`), signal: new AbortController().signal }).then(
          () => 'encoded',
          (error: unknown) => (error instanceof EncodeError ? 'refused' : String(error)),
        );
      };
      expect({ under: await outcome(16), at: await outcome(32) }).toEqual({ under: 'refused', at: 'encoded' });
    });
  });

  describe('the ffmpeg renders use', () => {
    it('is FFMPEG_PATH when set, else the system\'s before the npm build; /readyz says its source and version, never its path', async () => {
      expect(resolveFfmpeg('/opt/ffmpeg/bin/ffmpeg')).toEqual({ path: '/opt/ffmpeg/bin/ffmpeg', source: 'FFMPEG_PATH' });
      const found = resolveFfmpeg();
      expect(found.source).toBe(['/usr/bin/ffmpeg', '/usr/local/bin/ffmpeg'].includes(found.path) ? 'system' : 'npm');
      const ready = await t.http().get('/readyz');
      expect(ready.status).toBe(200);
      const { stdout } = await run(found.path, ['-hide_banner', '-version']);
      expect(ready.body.ffmpeg).toEqual({ source: found.source, version: stdout.split(' ')[2] });
      expect(JSON.stringify(ready.body)).not.toContain('/');
      // An ffmpeg that does not run is reported, and does not make the instance unready.
      const missing = await supertest(express().use(healthRouter(t.orm, undefined, () => ffmpegStatus({ path: '/nonexistent/ffmpeg', source: 'FFMPEG_PATH' })))).get('/readyz');
      expect({ status: missing.status, ffmpeg: missing.body.ffmpeg }).toEqual({ status: 200, ffmpeg: { source: 'FFMPEG_PATH', version: 'unavailable' } });
    });
  });
});

describe('a run queued before RENDER_MAX_IMAGE_SIDE was lowered (real PostgreSQL)', () => {
  let t: TestApp;
  let worker: RenderWorker | undefined;
  beforeAll(async () => {
    t = await createTestApp({ env: renderEnv({ RENDER_RETRY_LIMIT: '2' }) });
  });
  afterAll(async () => {
    await worker?.stop(1000);
    await t?.close();
  });

  it('fails at once on the worker, naming the prop, and is not retried', async () => {
    const res = await t.http().post('/api/video/render').set(as.nora).send({
      compositionId: 'social-post', inputProps: { caption: 'x', backgroundImage: dataUrl('image/png', await flatPng(32, 24)) }, width: 16, height: 16, fps: 10, durationInFrames: 2,
    });
    expect(res.status).toBe(200);
    worker = new RenderWorker({ ...t.deps.render, orm: t.orm, config: { ...t.config.render, maxImageSide: 16 }, logger: t.deps.logger });
    await worker.start(1);
    const failed = await waitForRun(t, as.nora, res.body.runId, ['FAILED', 'COMPLETED']);
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 1, output: null, error: 'inputProps.backgroundImage is 32×24 pixels; images may be at most 16×16' });
  });
});
