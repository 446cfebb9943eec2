import { imageSize } from 'image-size';

/**
 * The media types a composition prop can carry, and how each is read. ffmpeg is never left to guess
 * a format from the bytes: a guessed HLS playlist, concat script or SDP file opens other files
 * (another account's video) or the network. So each type names the one demuxer that reads it, and
 * its bytes must start as that type does before a render is accepted.
 */
export interface MediaType {
  kind: 'image' | 'audio';
  /** File extension of the job's copy. */
  extension: string;
  /** The ffmpeg demuxer forced for it (`-f`). */
  demuxer: MediaDemuxer;
  /** Whether the bytes start as this type does. */
  matches(bytes: Buffer): boolean;
}

/** Demuxers that read one file and can reference nothing else. */
export const MEDIA_DEMUXERS = ['png_pipe', 'jpeg_pipe', 'mp3', 'wav', 'ogg'] as const;
export type MediaDemuxer = (typeof MEDIA_DEMUXERS)[number];

const startsWith = (bytes: Buffer, prefix: number[] | string, at = 0) => {
  const want = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : Buffer.from(prefix);
  return bytes.length >= at + want.length && bytes.subarray(at, at + want.length).equals(want);
};

/** A PNG: the signature, then the IHDR chunk (what image-size reads the dimensions from). */
const isPng = (b: Buffer) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && startsWith(b, 'IHDR', 12);
/** A JPEG: start of image, then a marker. */
const isJpeg = (b: Buffer) => startsWith(b, [0xff, 0xd8, 0xff]);
const isWav = (b: Buffer) => startsWith(b, 'RIFF') && startsWith(b, 'WAVE', 8);
/** Ogg audio: the first page's first packet is the header of an audio codec (not Theora video, which has no sound to mix). */
const OGG_AUDIO_HEADERS = ['\x01vorbis', 'OpusHead', '\x7fFLAC', 'Speex   '];
function isOgg(b: Buffer): boolean {
  if (!startsWith(b, 'OggS') || b.length < 27) return false;
  const packet = 27 + b[26];
  return OGG_AUDIO_HEADERS.some((header) => startsWith(b, header, packet));
}

/** An MPEG audio frame header: 11 sync bits, a version and a layer that exist, a bitrate index that is not "bad", a sample rate that exists. */
const isMpegFrame = (b: Buffer, at: number) =>
  b.length >= at + 4 &&
  b[at] === 0xff &&
  (b[at + 1] & 0xe0) === 0xe0 &&
  ((b[at + 1] >> 3) & 3) !== 1 &&
  ((b[at + 1] >> 1) & 3) !== 0 &&
  b[at + 2] >> 4 !== 0xf &&
  ((b[at + 2] >> 2) & 3) !== 3;

/**
 * MP3: a frame header, or ID3v2 tags followed by one. What follows the tags is checked too, so text
 * (a playlist) behind an ID3 header does not pass as audio.
 */
function isMp3(b: Buffer): boolean {
  let at = 0;
  // Tags may be repeated; each is 'ID3', version, flags, a 28-bit syncsafe size, and a footer when flag 0x10 says so.
  while (startsWith(b, 'ID3', at) && b.length >= at + 10) {
    const size = ((b[at + 6] & 0x7f) << 21) | ((b[at + 7] & 0x7f) << 14) | ((b[at + 8] & 0x7f) << 7) | (b[at + 9] & 0x7f);
    at += 10 + size + (b[at + 5] & 0x10 ? 10 : 0);
  }
  return isMpegFrame(b, at);
}

export const MEDIA_TYPES: Record<string, MediaType> = {
  'image/png': { kind: 'image', extension: 'png', demuxer: 'png_pipe', matches: isPng },
  'image/jpeg': { kind: 'image', extension: 'jpg', demuxer: 'jpeg_pipe', matches: isJpeg },
  'audio/mpeg': { kind: 'audio', extension: 'mp3', demuxer: 'mp3', matches: isMp3 },
  'audio/wav': { kind: 'audio', extension: 'wav', demuxer: 'wav', matches: isWav },
  'audio/x-wav': { kind: 'audio', extension: 'wav', demuxer: 'wav', matches: isWav },
  'audio/ogg': { kind: 'audio', extension: 'ogg', demuxer: 'ogg', matches: isOgg },
};

/** Width and height an image decodes to, read from its header (nothing is decoded); undefined when unreadable. */
export function imageDimensions(bytes: Buffer): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
