#!/usr/bin/env node
// The npm launcher of did-it-actually. The native binary comes in a per-platform package
// (@did-it-actually/<os>-<cpu>, an optional dependency that npm installs only where its
// `os` and `cpu` match); this script finds it and runs it.
//
// `install` is different: a hook registration must outlive the npx cache, so the binary
// is first copied to <prefix>/bin/did-it-actually (<prefix> is $DID_IT_ACTUALLY_PREFIX,
// else ~/.local) with a link per hook name, as install/get.sh does, and that copy runs
// the install. Every other subcommand runs the packaged binary directly.
//
// Plain Node >= 18, no dependencies.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

// No Windows package: the guards use Unix file APIs (run them under WSL there).
const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'];
const SOURCE = 'https://github.com/did-it-actually/did-it-actually';
const FROM_SOURCE = `build it from source instead: clone ${SOURCE} and run install/install.sh --project /path/to/project (it needs the Rust toolchain)`;
const WINDOWS = process.platform === 'win32';
const EXE = WINDOWS ? 'did-it-actually.exe' : 'did-it-actually';

function say(stream, message) {
  stream.write(`did-it-actually (npm): ${message}\n`);
}

function fail(message) {
  say(process.stderr, message);
  process.exit(1);
}

/** The binary in this platform's package, or exit 1 saying why there is none. */
function packagedBinary() {
  const platform = `${process.platform}-${process.arch}`;
  if (!PLATFORMS.includes(platform)) {
    fail(`there is no prebuilt binary for ${platform} (the npm package has ${PLATFORMS.join(', ')}): ${FROM_SOURCE}.`);
  }
  const name = `@did-it-actually/${platform}`;
  let dir;
  try {
    dir = path.dirname(require.resolve(`${name}/package.json`));
  } catch (e) {
    fail(`the package with the binary for ${platform}, ${name}, is not installed (npm leaves optional dependencies out with --omit=optional or --no-optional): install did-it-actually again without that, or ${FROM_SOURCE}.`);
  }
  const binary = path.join(dir, 'bin', EXE);
  if (!fs.existsSync(binary)) {
    fail(`${name} has no bin/${EXE}: install did-it-actually again, or ${FROM_SOURCE}.`);
  }
  return binary;
}

/** Runs `binary` with `args` on this terminal; its exit code, or 1 (said) when it died. */
function run(binary, args) {
  const result = spawnSync(binary, args, { stdio: 'inherit' });
  if (result.error) {
    fail(`cannot run ${binary}: ${result.error.message}`);
  }
  if (result.signal) {
    say(process.stderr, `${binary} was killed by ${result.signal}.`);
    return 1;
  }
  return result.status === null ? 1 : result.status;
}

/** The output of `binary args`, or exit 1 saying what went wrong. */
function output(binary, args) {
  const result = spawnSync(binary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.error || result.status !== 0) {
    const why = result.error ? result.error.message : result.signal ? `killed by ${result.signal}` : `exit ${result.status}`;
    fail(`${binary} ${args.join(' ')} failed (${why}).`);
  }
  return result.stdout;
}

/** Replaces `dest` by a new file or link made at a temporary name beside it. */
function replace(dest, make) {
  const tmp = path.join(path.dirname(dest), `.${path.basename(dest)}.new.${process.pid}`);
  try {
    fs.rmSync(tmp, { force: true });
    make(tmp);
    fs.renameSync(tmp, dest);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    fail(`cannot write ${dest}: ${e.message}`);
  }
}

/** Copies the packaged binary into `binDir`, with its hook-name links; the copy's path. */
function installCopy(packaged, binDir) {
  try {
    fs.mkdirSync(binDir, { recursive: true });
  } catch (e) {
    fail(`cannot create ${binDir}: ${e.message}`);
  }
  const binary = path.join(binDir, EXE);
  replace(binary, (tmp) => {
    fs.copyFileSync(packaged, tmp);
    fs.chmodSync(tmp, 0o755);
  });
  const hooks = output(binary, ['hook-names']).split(/\r?\n/).filter((h) => h !== '');
  const links = [];
  for (const hook of hooks) {
    if (!/^[a-z][a-z0-9-]*$/.test(hook)) {
      fail(`${binary} hook-names printed ${JSON.stringify(hook)}, which is not a hook name.`);
    }
    // Windows needs privileges for symbolic links; its hooks run as `did-it-actually <hook>`.
    if (WINDOWS) continue;
    replace(path.join(binDir, hook), (tmp) => fs.symlinkSync(EXE, tmp));
    links.push(hook);
  }
  return { binary, links };
}

function onPath(dir) {
  const real = (p) => {
    try {
      return fs.realpathSync(p);
    } catch (e) {
      return path.resolve(p);
    }
  };
  const want = real(dir);
  return (process.env.PATH || '')
    .split(path.delimiter)
    .some((entry) => entry !== '' && (path.resolve(entry) === dir || real(entry) === want));
}

function install(args) {
  const packaged = packagedBinary();
  // Asked for help, or told which binary the entries run: nothing to copy.
  if (args.some((a) => a === '-h' || a === '--help' || a === '--binary' || a.startsWith('--binary='))) {
    return run(packaged, ['install', ...args]);
  }
  const prefix = path.resolve(process.env.DID_IT_ACTUALLY_PREFIX || path.join(os.homedir(), '.local'));
  const binDir = path.join(prefix, 'bin');
  const dest = path.join(binDir, EXE);
  // A dry run writes nothing: it shows the entries naming where the copy would go.
  if (args.some((a) => a === '--dry-run' || a === '--print-settings')) {
    say(process.stderr, `the entries below name ${dest}, where \`npx did-it-actually install\` (without --dry-run or --print-settings) copies the binary; nothing was copied.`);
    return run(packaged, ['install', '--binary', dest, ...args]);
  }
  const { binary, links } = installCopy(packaged, binDir);
  const version = output(binary, ['--version']).trim();
  const linked = links.length > 0 ? `, with the links ${links.join(', ')}` : '';
  say(process.stdout, `installed ${version} at ${binary}${linked} (a copy: the hooks must not run from the npx cache).`);
  const code = run(binary, ['install', ...args]);
  if (onPath(binDir)) {
    say(process.stdout, `${binDir} is on PATH.`);
  } else {
    const add = WINDOWS ? `add it to your Path` : `add it (export PATH="${binDir}:$PATH")`;
    say(process.stdout, `${binDir} is not on PATH: the hooks do not need it (they name the binary), but to run did-it-actually from a shell ${add}.`);
  }
  return code;
}

const args = process.argv.slice(2);
process.exitCode = args[0] === 'install' ? install(args.slice(1)) : run(packagedBinary(), args);
