import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { CODECS, RenderCodec } from './codecs';
import type { FilterGraph, FrameSpec } from './compositions';
import type { FfmpegInput } from './compositions/composition';

export interface EncodeOptions {
  ffmpegPath: string;
  graph: FilterGraph;
  spec: FrameSpec;
  codec: RenderCodec;
  output: string;
  signal: AbortSignal;
  /** Called with the number of frames encoded so far, as ffmpeg reports them. */
  onFrame?: (frame: number) => void;
}

/** ffmpeg's own words when a render fails: its last lines of stderr, without paths. */
export class EncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncodeError';
  }
}

/** Where the ffmpeg of this process comes from: FFMPEG_PATH, the system's (Debian's `ffmpeg` package), or the npm package. */
export interface FfmpegBuild {
  path: string;
  source: 'FFMPEG_PATH' | 'system' | 'npm';
}

/** Maintained builds, in order: Debian's package (security updates with the system) before the npm one (a 2018 build, 4.1). */
const SYSTEM_FFMPEG = ['/usr/bin/ffmpeg', '/usr/local/bin/ffmpeg'];

/** The ffmpeg renders use: FFMPEG_PATH when set, else the system's, else @ffmpeg-installer/ffmpeg's. */
export function resolveFfmpeg(configured?: string): FfmpegBuild {
  if (configured) return { path: configured, source: 'FFMPEG_PATH' };
  const system = SYSTEM_FFMPEG.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (system) return { path: system, source: 'system' };
  return { path: (require('@ffmpeg-installer/ffmpeg') as { path: string }).path, source: 'npm' };
}

export function ffmpegPath(configured?: string): string {
  return resolveFfmpeg(configured).path;
}

export const NPM_FFMPEG_WARNING = 'rendering with the ffmpeg of @ffmpeg-installer/ffmpeg, a 2018 build (4.1) with published decoder CVEs: install Debian\'s ffmpeg (apt-get install ffmpeg) or set FFMPEG_PATH';

/** What /readyz and the start banner say of the ffmpeg renders use (no path: answers are public). */
export interface FfmpegStatus {
  source: FfmpegBuild['source'];
  /** Its version, or 'unavailable' when it does not run. */
  version: string;
}

export async function ffmpegStatus(build: FfmpegBuild): Promise<FfmpegStatus> {
  return { source: build.source, version: (await ffmpegVersion(build.path)) ?? 'unavailable' };
}

const versions = new Map<string, Promise<string | undefined>>();

/** ffmpeg's version (`ffmpeg -version`, e.g. "5.1.6-0+deb12u1"), once per binary; undefined when it does not run. */
export function ffmpegVersion(path: string): Promise<string | undefined> {
  let version = versions.get(path);
  if (!version) {
    version = new Promise((resolve) => {
      execFile(path, ['-hide_banner', '-version'], { timeout: 10_000 }, (error, stdout) => {
        resolve(error ? undefined : /^ffmpeg version (\S+)/.exec(stdout)?.[1]);
      });
    });
    versions.set(path, version);
  }
  return version;
}

/** ffprobe from npm: tests use it to check what the encoder wrote. */
export function ffprobePath(): string {
  return (require('@ffprobe-installer/ffprobe') as { path: string }).path;
}

/** The ffmpeg command line for a graph: input 0 is the background colour at the exact size and rate. */
export function ffmpegArgs(o: Omit<EncodeOptions, 'ffmpegPath' | 'signal' | 'onFrame'>): string[] {
  const codec = CODECS[o.codec];
  const { width, height, fps, durationInFrames } = o.spec;
  const pix = codec.pixelFormat(width, height);
  return [
    '-hide_banner', '-nostdin', '-nostats', '-y', '-loglevel', 'error', '-progress', 'pipe:1',
    // rgb24 first: a colour source negotiated straight to 4:2:0 would round odd sizes down.
    '-f', 'lavfi', '-i', `color=c=${o.graph.background}:s=${width}x${height}:r=${fps},format=rgb24`,
    ...o.graph.inputs.flatMap(inputArgs),
    '-filter_complex', `${o.graph.filter};[v]format=${pix},setsar=1[vout]`,
    '-map', '[vout]',
    ...(o.graph.audio ? ['-map', '[a]', ...codec.audioArgs] : ['-an']),
    '-frames:v', String(durationInFrames),
    ...codec.videoArgs,
    ...codec.containerArgs,
    '-f', codec.container,
    o.output,
  ];
}

/**
 * One input's arguments. A file is read by its declared demuxer over the file protocol only, and is
 * named `file:<path>`: ffmpeg never guesses a format (a guessed playlist or concat script would open
 * other files) and a path is never taken for another protocol.
 */
function inputArgs(input: FfmpegInput): string[] {
  if ('lavfi' in input) return ['-f', 'lavfi', '-i', input.lavfi];
  // max_pixels: the decoder itself refuses a larger picture (a second line of defence behind the header check).
  return ['-f', input.demuxer, '-protocol_whitelist', 'file', ...(input.maxPixels ? ['-max_pixels', String(input.maxPixels)] : []), '-i', `file:${input.file}`];
}

/** Runs ffmpeg; resolves when the file is written, rejects on failure or when `signal` aborts (ffmpeg is killed). */
export function encode(o: EncodeOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    if (o.signal.aborted) {
      reject(o.signal.reason);
      return;
    }
    const child = spawn(o.ffmpegPath, ffmpegArgs(o), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let buffered = '';
    const onAbort = () => child.kill('SIGKILL');
    o.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^frame=(\d+)/.exec(line);
        if (m) o.onFrame?.(Number(m[1]));
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.on('error', (error) => {
      o.signal.removeEventListener('abort', onAbort);
      // The system error names paths: keep it in the logs, not in the run a client reads.
      reject(new EncodeError(`ffmpeg could not start (${(error as NodeJS.ErrnoException).code ?? 'error'})`));
    });
    child.on('close', (code, signal) => {
      o.signal.removeEventListener('abort', onAbort);
      if (o.signal.aborted) reject(o.signal.reason);
      else if (code === 0) resolve();
      else {
        const lastLines = stderr.trim().split('\n').slice(-3).join(' ').replace(/\/[^\s'"]+/g, '<file>');
        reject(new EncodeError(`ffmpeg failed (${signal ?? `exit ${code}`})${lastLines ? `: ${lastLines}` : ''}`));
      }
    });
  });
}
