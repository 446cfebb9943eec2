import { spawn } from 'node:child_process';
import { CODECS, RenderCodec } from './codecs';
import type { FilterGraph, FrameSpec } from './compositions';

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

export function ffmpegPath(configured?: string): string {
  if (configured) return configured;
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
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
    ...o.graph.inputs.flat(),
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
