// `npm start`, `npm run dev`, `npm run dist`: Electron's binary first, then the tool.
//
// Electron 45 has no install script: it fetches its binary the first time
// `require('electron')` runs, while electron-vite only reads
// node_modules/electron/path.txt and stops with "Electron uninstall" when it is
// missing. So nothing between `npm install` and `npm start` ever fetched it. Here
// Electron's own install.js fetches it (through @electron/get, so ELECTRON_MIRROR,
// electron_config_cache, ELECTRON_GET_USE_PROXY and the rest apply), then
// electron-vite gets its path in ELECTRON_EXEC_PATH. Where the download cannot
// happen, one paragraph says what failed and the ways out.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { requireNode } from './require-node.mjs';

requireNode();

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));
const electronVersion = require('electron/package.json').version;
const platform = process.env.ELECTRON_INSTALL_PLATFORM || process.env.npm_config_platform || process.platform;
const arch = process.env.ELECTRON_INSTALL_ARCH || process.env.npm_config_arch || process.arch;

/** Where the executable sits inside an Electron zip (install.js writes the same into path.txt). */
function executableInDist() {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  return platform === 'win32' ? 'electron.exe' : 'electron';
}

/** The binary install.js left, when it is the version package.json asks for. */
function installedBinary() {
  try {
    const distVersion = readFileSync(join(electronDir, 'dist', 'version'), 'utf8').trim().replace(/^v/, '');
    const binary = join(electronDir, 'dist', readFileSync(join(electronDir, 'path.txt'), 'utf8').trim());
    return distVersion === electronVersion && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Where @electron/get fetches from, for the message (its own precedence, in short). */
function downloadSource() {
  const mirror = process.env.npm_config_electron_mirror || process.env.ELECTRON_MIRROR;
  return mirror ? mirror : 'github.com/electron/electron/releases';
}

function stop(paragraph) {
  console.error(`\n${paragraph}\n`);
  process.exit(1);
}

function waysOut(zipName) {
  return (
    'Ways out: use a mirror you can reach (ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/ npm start); ' +
    'go through your proxy (ELECTRON_GET_USE_PROXY=1 GLOBAL_AGENT_HTTPS_PROXY=http://proxy.example:8080 npm start); ' +
    `or fetch ${zipName} on another computer, unzip it into a folder and run ELECTRON_OVERRIDE_DIST_PATH=/that/folder npm start. ` +
    'Electron keeps what it fetched in its cache (electron_config_cache names another one), so this happens once.'
  );
}

/** Electron's unpacked folder and its binary, fetched first if not here; stops with a paragraph if it cannot be had. */
function electron() {
  const zipName = `electron-v${electronVersion}-${platform}-${arch}.zip`;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const binary = join(override, executableInDist());
    if (existsSync(binary)) return { dist: override, binary };
    stop(`Inbox Desk cannot start: ELECTRON_OVERRIDE_DIST_PATH is ${override}, but ${executableInDist()} is not in it. Unzip ${zipName} into that folder, or unset the variable to let Electron fetch its binary.`);
  }
  const installed = installedBinary();
  if (installed) return { dist: join(electronDir, 'dist'), binary: installed };
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    stop(`Inbox Desk cannot start: Electron ${electronVersion}'s binary is not on this computer, and ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is not fetched. Unset it to let Electron fetch it once. ${waysOut(zipName)}`);
  }
  const started = Date.now();
  console.log(`Fetching Electron ${electronVersion} for ${platform}-${arch} from ${downloadSource()} (about 100 MB, only this once)…`);
  const install = spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  const binary = installedBinary();
  if (install.status === 0 && binary) {
    console.log(`Electron is ready (${((Date.now() - started) / 1000).toFixed(1)} s).`);
    return { dist: join(electronDir, 'dist'), binary };
  }
  // install.js prints the error's stack: its first line is the reason ("HTTPError: Response code 404 … for <url>", "TypeError: fetch failed").
  const firstLine = (install.stderr || install.error?.message || '').split('\n').map((line) => line.trim()).find(Boolean);
  const reason = !firstLine ? `exit code ${install.status}` : /fetch failed/.test(firstLine) ? `no connection: ${firstLine}` : firstLine;
  stop(`Inbox Desk cannot start: Electron ${electronVersion} for ${platform}-${arch} is not on this computer, and fetching it from ${downloadSource()} failed (${reason}). Electron fetches its binary once, at the first start. ${waysOut(zipName)}`);
}

/** Runs a package's command-line entry with this Node, and resolves with its exit code. */
function runBin(packageName, binName, args, env) {
  const manifest = require(`${packageName}/package.json`);
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[binName];
  const child = spawn(process.execPath, [join(dirname(require.resolve(`${packageName}/package.json`)), bin), ...args], { stdio: 'inherit', env });
  // Ctrl+C reaches the whole process group; this only keeps us alive until the child has closed.
  const ignore = () => {};
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      process.off('SIGINT', ignore);
      process.off('SIGTERM', ignore);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** `npm run dist -- --mac` from Linux builds for another platform: electron-builder then fetches that Electron itself. */
function buildsForThisPlatform(args) {
  const named = { darwin: ['--mac', '-m', '--macos'], win32: ['--win', '-w', '--windows'], linux: ['--linux', '-l'] };
  const others = Object.entries(named).filter(([name]) => name !== process.platform).flatMap(([, flags]) => flags);
  return !args.some((arg) => others.includes(arg));
}

const [command, ...args] = process.argv.slice(2);
const passOn = args.length > 0 ? ['--', ...args] : [];
let status;
if (command === 'start' || command === 'dev') {
  const env = { ...process.env, ELECTRON_EXEC_PATH: electron().binary };
  // `electron-vite preview` builds first, then starts Electron with the built main entry.
  status = await runBin('electron-vite', 'electron-vite', [command === 'start' ? 'preview' : 'dev', ...passOn], env);
} else if (command === 'dist') {
  const fetched = buildsForThisPlatform(args) ? electron() : null;
  status = await runBin('electron-vite', 'electron-vite', ['build'], process.env);
  if (status === 0) {
    // The unpacked Electron fetched above is what the package is built from, so it is not fetched twice.
    const electronDist = fetched ? [`--config.electronDist=${fetched.dist}`] : [];
    status = await runBin('electron-builder', 'electron-builder', ['--config', 'electron-builder.yml', ...electronDist, ...args], process.env);
  }
} else {
  console.error('usage: node scripts/electron-app.mjs start|dev|dist [arguments for Electron or electron-builder]');
  status = 2;
}
process.exit(status);
