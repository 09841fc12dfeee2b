// did-it-actually plugin for opencode
// Written by `did-it-actually install --host opencode`; `did-it-actually uninstall --host
// opencode` removes it, and install rewrites it: do not edit it by hand.
//
// opencode has no command hooks, so this plugin hands each of opencode's hooks to the
// did-it-actually binary (on stdin, with opencode's own names) and does what it answers:
// a refusal before a tool is thrown (opencode tells the model why and does not run the
// tool), context after a tool is appended to what the model reads. opencode cannot
// refuse the end of a turn: the audit of a turn is reported to the user. Where the
// binary cannot be found or run, a tool call is refused (fail closed), never let through.

import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { delimiter, join } from "node:path";

const NAME = "did-it-actually";
// The binary install named (null: the search below finds it), then PATH, then these
// directories under HOME, as the other hosts' launchers look.
const NAMED = /*NAMED*/null;
// A managed install's plugin runs the administrator's binary only: never one found on
// PATH or under HOME, which the agent could have put there.
const ONLY_NAMED = /*ONLY_NAMED*/false;
const HOME_BIN_DIRS = /*HOME_BIN_DIRS*/[];
const MISSING = /*MISSING*/"";
// Which hook runs on which of opencode's hooks, for which tools (null: every tool).
const HOOKS = /*HOOKS*/[];

function isProgram(path) {
  try {
    const s = statSync(path);
    return s.isFile() && (s.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function findBinary() {
  const home = process.env.HOME ?? "";
  const candidates = ONLY_NAMED ? [NAMED] : [
    NAMED,
    ...(process.env.PATH ?? "").split(delimiter).filter(Boolean).map((d) => join(d, NAME)),
    ...(home ? HOME_BIN_DIRS.map((d) => join(home, d, NAME)) : []),
  ];
  return candidates.find((c) => c && isProgram(c)) ?? null;
}

// Runs one hook: its answer (a JSON object, {} for none), or the problem that kept it
// from answering.
function ask(entry, payload) {
  const binary = findBinary();
  if (!binary) return { problem: `${entry.hook}: ${MISSING}` };
  const run = spawnSync(binary, [entry.hook, "--host", "opencode", ...entry.args], {
    input: JSON.stringify(payload),
    encoding: "utf8",
    timeout: entry.timeout * 1000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) {
    return { problem: `${entry.hook}: ${binary} could not be run (${run.error.code ?? run.error.message})` };
  }
  const stderr = (run.stderr ?? "").trim();
  if (run.status !== 0) {
    return { problem: stderr || `${entry.hook}: ${binary} ended with ${run.status ?? run.signal}` };
  }
  const text = (run.stdout ?? "").trim();
  if (!text) return { answer: {}, stderr };
  try {
    return { answer: JSON.parse(text), stderr };
  } catch {
    return { problem: `${entry.hook}: ${binary} answered with something that is not JSON: ${text.slice(0, 200)}` };
  }
}

function entriesFor(event, tool) {
  return HOOKS.filter((e) => e.event === event && (e.tools === null || e.tools.includes(tool)));
}

export const DidItActually = async ({ client, directory }) => {
  // What the user must see: opencode's log, a toast in the TUI, standard error in
  // `opencode run` (where no TUI draws over it).
  // Where neither the log nor the toast takes it, standard error does.
  const tell = async (text) => {
    if (!text) return;
    let written = !process.stdout.isTTY || process.argv.slice(1, 4).includes("run");
    if (written) process.stderr.write(`${text}\n`);
    for (const send of [
      () => client.app.log({ body: { service: NAME, level: "warn", message: text } }),
      () => client.tui.showToast({ body: { message: text, variant: "warning" } }),
    ]) {
      try {
        await send();
        written = true;
      } catch {}
    }
    if (!written) process.stderr.write(`${text}\n`);
  };
  const base = (input) => ({ sessionID: input.sessionID, callID: input.callID, tool: input.tool, cwd: directory });

  return {
    "tool.execute.before": async (input, output) => {
      for (const entry of entriesFor("tool.execute.before", input.tool)) {
        const { answer, problem, stderr } = ask(entry, {
          hook_event_name: "tool.execute.before",
          ...base(input),
          args: output.args,
        });
        if (problem) throw new Error(`${problem}; the call was refused`);
        await tell(answer.systemMessage ?? stderr);
        const out = answer.hookSpecificOutput ?? {};
        if (out.permissionDecision === "deny") throw new Error(out.permissionDecisionReason);
      }
    },
    "tool.execute.after": async (input, output) => {
      for (const entry of entriesFor("tool.execute.after", input.tool)) {
        const { answer, problem, stderr } = ask(entry, {
          hook_event_name: "tool.execute.after",
          ...base(input),
          args: input.args,
          tool_response: { title: output.title, metadata: output.metadata, output: output.output },
        });
        if (problem) {
          await tell(problem);
          continue;
        }
        await tell(answer.systemMessage ?? stderr);
        const said = [answer.decision === "block" ? answer.reason : null, answer.hookSpecificOutput?.additionalContext];
        for (const text of said) if (text) output.output = `${output.output ?? ""}\n\n${text}`;
      }
    },
    event: async ({ event }) => {
      if (event.type !== "session.idle") return;
      const sessionID = event.properties?.sessionID;
      const entries = entriesFor("session.idle", null);
      if (entries.length === 0) return;
      // The turn's final message: opencode's idle event does not carry it.
      let last;
      try {
        const got = await client.session.messages({ path: { id: sessionID } });
        for (const m of got.data ?? got ?? []) {
          if (m.info?.role !== "assistant") continue;
          last = (m.parts ?? []).filter((p) => p.type === "text").map((p) => p.text).join("\n");
        }
      } catch (e) {
        // Said, never silent: without the message its claims cannot be checked.
        await tell(`${NAME}: opencode did not give the turn's final message (${e?.message ?? e}), so its claims were not checked`);
      }
      for (const entry of entries) {
        const { answer, problem, stderr } = ask(entry, {
          hook_event_name: "session.idle",
          sessionID,
          cwd: directory,
          stop_hook_active: false,
          last_assistant_message: last,
        });
        await tell(problem ?? answer.systemMessage ?? stderr);
      }
    },
  };
};
