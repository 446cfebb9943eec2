import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Fonts come from the dejavu-fonts-ttf npm package (Bitstream Vera / DejaVu licence, free to use
 * and redistribute), never from the system, so a bare machine renders the same frames.
 */
function fontDir(): string {
  return join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
}

export const FONTS = {
  regular: () => fontPath('DejaVuSans.ttf'),
  bold: () => fontPath('DejaVuSans-Bold.ttf'),
};

function fontPath(file: string): string {
  const path = join(fontDir(), file);
  if (!existsSync(path)) throw new Error(`font ${file} is missing from dejavu-fonts-ttf`);
  return path;
}
