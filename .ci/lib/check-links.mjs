// Checks every relative link of README.md and docs/*.md (docs/api/, TypeDoc's output, left out): the file or
// folder it names exists, and its `#anchor`, if any, is a heading (GitHub's slug) or an explicit
// `<a id="…">` / `<a name="…">` of the Markdown file it points to. Links to other sites are not fetched,
// except links into this repository on GitHub (`<repository>/blob/main/…`, `/tree/main/…`, the
// `repository` of package.json), which are checked as the relative links they stand for.
// README.md is also the registry's page, where a relative link resolves to nothing: there, every link
// but an in-page `#anchor` must be absolute (a repository link for a file of the repository).
//
//   node .ci/lib/check-links.mjs     exit 1 and one line per broken link
//
// Unit-tested in test/ci/check-links.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** GitHub's anchor for a heading's text: lower case, formatting and punctuation dropped, spaces to hyphens. */
export function slugify(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Markdown text without its fenced code blocks (a `#` comment in a shell block is not a heading, a link there not a link). */
function withoutFences(markdown) {
  const lines = markdown.split('\n');
  let fence;
  return lines
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker) {
        fence = marker;
        return '';
      }
      if (fence !== undefined) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats get `-1`, `-2`, … as on GitHub) and explicit ids. */
export function anchorsOf(markdown) {
  const text = withoutFences(markdown);
  const anchors = new Set();
  const seen = new Map();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = slugify(match[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  return anchors;
}

/** The link targets of a Markdown text, inline code and code blocks left out: `[text](target)` and `[label]: target`. */
export function linksOf(markdown) {
  const text = withoutFences(markdown).replace(/`[^`\n]*`/g, '');
  const links = [];
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(match[1]);
  for (const match of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) links.push(match[1]);
  return links;
}

/** `https://github.com/o/n` from package.json's `repository` (a string or `{ url }`, `git+` and `.git` dropped). */
export function repositoryUrl(manifest) {
  const given = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (typeof given !== 'string') return undefined;
  return given
    .replace(/^git\+/, '')
    .replace(/\.git$/, '')
    .replace(/\/$/, '');
}

/**
 * Broken links of `files` (paths relative to `root`), as `file: target (why)` lines. Options:
 * `repository`, links under whose `/blob/main/` or `/tree/main/` are checked as relative links from
 * the root; `published`, files shown on the registry's page, where a relative link is itself a problem.
 */
export function checkLinks(root, files, { repository, published = [] } = {}) {
  const inRepository =
    repository === undefined ? undefined : new RegExp(`^${escapeRegExp(repository)}/(?:blob|tree)/main/`);
  const problems = [];
  const anchorCache = new Map();
  const anchorsAt = (path) => {
    if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readFileSync(path, 'utf8')));
    return anchorCache.get(path);
  };
  for (const file of files) {
    const source = join(root, file);
    for (const target of linksOf(readFileSync(source, 'utf8'))) {
      const repositoryPath = inRepository?.exec(target) ? target.replace(inRepository, '') : undefined;
      if (repositoryPath === undefined && /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …: another site
      if (repositoryPath === undefined && published.includes(file) && !target.startsWith('#')) {
        const absolute = repository === undefined ? 'an absolute link' : `${repository}/blob/main/…`;
        problems.push(`${file}: ${target} (relative: resolves to nothing on the registry's page; use ${absolute})`);
        continue;
      }
      const local = repositoryPath ?? target;
      const hash = local.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? local : local.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(local.slice(hash + 1));
      const base = repositoryPath === undefined ? dirname(source) : root;
      const path = pathPart === '' ? (repositoryPath === undefined ? source : root) : resolve(base, pathPart);
      if (relative(root, path).startsWith('..')) {
        problems.push(`${file}: ${target} (outside the repository)`);
        continue;
      }
      if (!existsSync(path)) {
        problems.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(path).isDirectory() || !path.endsWith('.md')) {
        problems.push(`${file}: ${target} (an anchor into a file that is not Markdown)`);
        continue;
      }
      if (!anchorsAt(path).has(anchor)) problems.push(`${file}: ${target} (no heading #${anchor})`);
    }
  }
  return problems;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How this repository is checked: its GitHub address from package.json, README.md as the registry's page. */
export function repositoryOptions(root) {
  return {
    repository: repositoryUrl(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))),
    published: ['README.md'],
  };
}

/** README.md and every docs/*.md (not docs/api/, generated). */
export function documentationFiles(root) {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const files = documentationFiles(root);
  const problems = checkLinks(root, files, repositoryOptions(root));
  if (problems.length > 0) {
    console.error(`broken links:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(
    `links: ${files.length} files, every relative and repository link and anchor resolves; README.md has no relative link`,
  );
}
