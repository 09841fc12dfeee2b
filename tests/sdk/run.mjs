// Runs one query with the TypeScript Agent SDK (@anthropic-ai/claude-agent-sdk) and writes
// every SDK message to stdout as one JSON line. Used by tests/support/sdk.rs, which copies
// this file next to the SDK's node_modules (an ES module resolves its imports from its own
// location) and runs `node run.mjs <config.json>`.
//
// Config keys (see tests/support/sdk.rs, `SdkConfig`):
//   cwd, prompt            the session's working directory and prompt
//   env                    merged over process.env (the SDK's `env` REPLACES the environment)
//   settingSources         a list, or null to leave the option out (= every source)
//   settings               an object or a path: the `settings` option (the flag settings)
//   mcpShell               an in-process MCP server `sh` with a tool `Bash` {command}
//   mcpEndTurn             an in-process MCP server `ctl` with a tool `end_turn` {summary}
//   claudePath             pathToClaudeCodeExecutable (default: the bundled binary)
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { query, createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const env = { ...process.env, ...(cfg.env ?? {}) };

function emit(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

// The app's own shell tool: /bin/sh -c in the session's cwd, stdout and stderr as text.
function sh(command) {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: cfg.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => resolve(`${out}${e}`));
    child.on('close', () => resolve(out));
  });
}

const options = {
  cwd: cfg.cwd,
  env,
  permissionMode: 'bypassPermissions',
  allowDangerouslySkipPermissions: true,
  stderr: (data) => process.stderr.write(data),
};
if (Array.isArray(cfg.settingSources)) options.settingSources = cfg.settingSources;
if (cfg.settings !== undefined && cfg.settings !== null) options.settings = cfg.settings;
if (cfg.claudePath) options.pathToClaudeCodeExecutable = cfg.claudePath;

const mcpServers = {};
if (cfg.mcpShell) {
  mcpServers.sh = createSdkMcpServer({
    name: 'sh',
    alwaysLoad: true,
    tools: [
      tool('Bash', 'Run a shell command in the project and return its output.', { command: z.string() },
        async ({ command }) => ({ content: [{ type: 'text', text: await sh(command) }] })),
    ],
  });
}
if (cfg.mcpEndTurn) {
  mcpServers.ctl = createSdkMcpServer({
    name: 'ctl',
    alwaysLoad: true,
    tools: [
      tool('end_turn', 'End the turn with a summary of what was done.', { summary: z.string() },
        async () => ({ content: [{ type: 'text', text: 'turn ended' }] })),
    ],
  });
}
if (Object.keys(mcpServers).length > 0) options.mcpServers = mcpServers;

try {
  for await (const message of query({ prompt: cfg.prompt, options })) emit(message);
} catch (e) {
  process.stderr.write(`run.mjs: the query failed: ${e?.stack ?? e}\n`);
  process.exit(1);
}
process.exit(0);
