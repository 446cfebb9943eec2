import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { anchors, docFiles, relativeLinks, ROOT } from './markdown';

/** Every relative link and #anchor of README.md, docs/ and bench/ leads somewhere in the repository. */
describe('documentation links', () => {
  const files = docFiles();

  it('keeps README.md a front door: at most 250 lines, the rest in docs/', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('covers README.md, the docs pages and the benchmark README', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'bench/README.md']));
  });

  it.each(files)('%s: every relative link and anchor resolves', (file) => {
    const broken: string[] = [];
    for (const { line, target } of relativeLinks(file)) {
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = path ? normalize(join(dirname(file), decodeURIComponent(path))) : file;
      if (resolved.startsWith('..')) {
        broken.push(`${file}:${line} ${target}: outside the repository`);
        continue;
      }
      if (!existsSync(join(ROOT, resolved))) {
        broken.push(`${file}:${line} ${target}: no such file`);
        continue;
      }
      if (anchor !== undefined) {
        if (!resolved.endsWith('.md') || statSync(join(ROOT, resolved)).isDirectory()) {
          broken.push(`${file}:${line} ${target}: an anchor into a file that is not Markdown`);
        } else if (!anchors(resolved).has(anchor)) {
          broken.push(`${file}:${line} ${target}: ${resolved} has no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
