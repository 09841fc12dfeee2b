#!/usr/bin/env node
// The cost opencode pays per tool call for the guards: the plugin `install --host opencode`
// writes, imported as opencode imports it, its hooks called as opencode calls them (each
// runs `did-it-actually HOOK --host opencode` with spawnSync), timed in-process, against
// the floor of the same number of bare `spawnSync('/bin/true')` calls. Prints a markdown
// table (p50, p90 in ms).
//
//     node bench/opencode_plugin.mjs BINARY [--runs N]
//
// BINARY: the did-it-actually to install (bench/run.sh builds the release one). opencode
// runs plugins in Bun; this runs them in node, so the numbers are the plugin's and the
// binary's cost, not Bun's. The world is a scratch directory, removed at the end.
import { spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const binary = resolve(process.argv[2]);
const at = process.argv.indexOf("--runs");
const runs = at > 0 ? Number(process.argv[at + 1]) : 200;
const root = mkdtempSync(join(tmpdir(), "dia-opencode-bench-"));
try {
  const env = { ...process.env, HOME: join(root, "home"), DID_IT_ACTUALLY_STATE_DIR: join(root, "state") };
  mkdirSync(env.HOME);
  const work = join(root, "work");
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  execFileSync(binary, ["install", "--host", "opencode", "--project", work], { env, stdio: "ignore" });
  Object.assign(process.env, env);
  const mod = await import(pathToFileURL(join(work, ".opencode/plugins/did-it-actually.js")));
  const hooks = await Object.values(mod)[0]({ client: {}, directory: work });
  let n = 0;
  const call = () => ({ tool: "bash", sessionID: "bench", callID: `c${n++}` });
  const cases = [
    ["before: bash `echo hi` (block-wrong-branch, scope-guard)", 2, async () => {
      await hooks["tool.execute.before"](call(), { args: { command: "echo hi" } });
    }],
    ["after: bash ran (verify-write, the run log)", 1, async () => {
      const input = { ...call(), args: { command: "echo hi" } };
      await hooks["tool.execute.after"](input, { title: "echo hi", metadata: { exit: 0, output: "hi" }, output: "hi" });
    }],
  ];
  const floor = (k) => async () => { for (let i = 0; i < k; i++) spawnSync("/bin/true"); };
  const time = async (f) => { const t = process.hrtime.bigint(); await f(); return Number(process.hrtime.bigint() - t) / 1e6; };
  const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
  console.log("| case | runs | p50 ms | p90 ms | floor (same number of /bin/true spawns) p50 ms | over floor p50 ms |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [name, spawns, f] of cases) {
    const mine = [], bare = [];
    for (let i = 0; i < 3; i++) { await f(); await floor(spawns)(); }
    for (let i = 0; i < runs; i++) { mine.push(await time(f)); bare.push(await time(floor(spawns))); }
    const [p50, p90, f50] = [pct(mine, 0.5), pct(mine, 0.9), pct(bare, 0.5)];
    console.log(`| ${name} | ${runs} | ${p50.toFixed(2)} | ${p90.toFixed(2)} | ${f50.toFixed(2)} | +${(p50 - f50).toFixed(2)} |`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
