/** The four video codecs a render can ask for, and how ffmpeg makes each. */
export const RENDER_CODECS = ['h264', 'h265', 'vp8', 'vp9'] as const;
export type RenderCodec = (typeof RENDER_CODECS)[number];

export interface CodecSpec {
  container: 'mp4' | 'webm';
  extension: 'mp4' | 'webm';
  mimeType: string;
  /** ffprobe's codec_name for the video stream. */
  probeName: string;
  videoArgs: string[];
  audioArgs: string[];
  /** 4:2:0 needs even sizes in x264/x265; odd sizes are encoded 4:4:4 so the size stays exact. */
  pixelFormat(width: number, height: number): string;
  containerArgs: string[];
}

const yuv420OrExact = (width: number, height: number) => (width % 2 === 0 && height % 2 === 0 ? 'yuv420p' : 'yuv444p');

export const CODECS: Record<RenderCodec, CodecSpec> = {
  h264: {
    container: 'mp4',
    extension: 'mp4',
    mimeType: 'video/mp4',
    probeName: 'h264',
    videoArgs: ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23'],
    audioArgs: ['-c:a', 'aac', '-b:a', '128k'],
    pixelFormat: yuv420OrExact,
    containerArgs: ['-movflags', '+faststart'],
  },
  h265: {
    container: 'mp4',
    extension: 'mp4',
    mimeType: 'video/mp4',
    probeName: 'hevc',
    videoArgs: ['-c:v', 'libx265', '-preset', 'fast', '-crf', '28', '-x265-params', 'log-level=error', '-tag:v', 'hvc1'],
    audioArgs: ['-c:a', 'aac', '-b:a', '128k'],
    pixelFormat: yuv420OrExact,
    containerArgs: ['-movflags', '+faststart'],
  },
  vp8: {
    container: 'webm',
    extension: 'webm',
    mimeType: 'video/webm',
    probeName: 'vp8',
    videoArgs: ['-c:v', 'libvpx', '-deadline', 'good', '-cpu-used', '5', '-crf', '10', '-b:v', '2M'],
    audioArgs: ['-c:a', 'libopus', '-b:a', '96k'],
    pixelFormat: () => 'yuv420p',
    containerArgs: [],
  },
  vp9: {
    container: 'webm',
    extension: 'webm',
    mimeType: 'video/webm',
    probeName: 'vp9',
    videoArgs: ['-c:v', 'libvpx-vp9', '-deadline', 'good', '-cpu-used', '5', '-row-mt', '1', '-crf', '32', '-b:v', '0'],
    audioArgs: ['-c:a', 'libopus', '-b:a', '96k'],
    pixelFormat: () => 'yuv420p',
    containerArgs: [],
  },
};
