// Points git at scripts/git-hooks (the commit-msg check) when this package is a git checkout of its
// own: run by `npm install` (prepare). Does nothing elsewhere (a tarball, a dependency inside another
// repository, no git) and never replaces a hooks path someone set to another folder.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HOOKS = 'scripts/git-hooks';
const root = realpathSync(fileURLToPath(new URL('..', import.meta.url)));

function git(...args) {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

const top = git('rev-parse', '--show-toplevel');
if (top !== undefined && realpathSync(top) === root) {
  const current = git('config', '--get', 'core.hooksPath');
  if (current === undefined || current === '' || current === HOOKS) {
    if (current !== HOOKS) git('config', 'core.hooksPath', HOOKS);
  } else {
    console.warn(`installHooks: core.hooksPath is ${current}; leaving it (the commit-msg check is in ${HOOKS})`);
  }
}
