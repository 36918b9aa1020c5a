/** The shared public corpus (../shared/bench/corpus), read in place and never copied into the repo. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface CorpusImage {
  id: string;
  file: string;
  class: string;
  width: number;
  height: number;
  gt_svg?: string;
}

/** The shared bench beside this checkout, or beside one of its parents (a git worktree sits deeper). */
export function findCorpus(): string {
  for (let dir = path.dirname(ROOT); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'bench', 'corpus');
    if (existsSync(candidate) || dir === path.dirname(dir)) return candidate;
  }
}

export function readManifest(corpus: string): CorpusImage[] {
  return (JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { images: CorpusImage[] }).images;
}
