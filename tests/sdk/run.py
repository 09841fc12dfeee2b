"""Runs one query with the Python Agent SDK (claude-agent-sdk) and writes every message
of the stream to stdout as one JSON line. Used by tests/support/sdk.rs, which runs
`<venv>/bin/python run.py <config.json>`.

The lines are the raw messages Claude Code sent (the same shape as the TypeScript SDK's
messages), taken where the SDK parses them; should that internal hook point move, the
parsed dataclasses are written instead, with a `type` and the class name.

Config keys (see tests/support/sdk.rs, `SdkConfig`): cwd, prompt, env (merged over the
environment by the SDK), settingSources (a list, or null to leave the option out),
settings (an object, sent as a JSON string, or a path), mcpShell (an in-process MCP server
`sh` with a tool `Bash` {command}), mcpEndTurn (an in-process MCP server `ctl` with a tool
`end_turn` {summary}), claudePath (cli_path; default: the bundled binary).
"""

import asyncio
import dataclasses
import json
import os
import sys

import claude_agent_sdk as sdk

cfg = json.load(open(sys.argv[1], encoding="utf-8"))
env = dict(cfg.get("env") or {})


def emit(message):
    sys.stdout.write(json.dumps(message, default=str) + "\n")
    sys.stdout.flush()


RAW = False
try:
    from claude_agent_sdk._internal import client as _client

    _parse = _client.parse_message

    def _tap(data):
        emit(data)
        return _parse(data)

    _client.parse_message = _tap
    RAW = True
except (ImportError, AttributeError):
    pass


def parsed(message):
    """Fallback: a dataclass message as JSON, typed like the stream's messages."""
    kinds = {
        "UserMessage": "user",
        "AssistantMessage": "assistant",
        "ResultMessage": "result",
        "StreamEvent": "stream_event",
    }
    name = type(message).__name__
    body = dataclasses.asdict(message) if dataclasses.is_dataclass(message) else {}
    body.setdefault("type", kinds.get(name, "system"))
    body["sdk_class"] = name
    return body


async def sh(command):
    """The app's own shell tool: /bin/sh -c in the session's cwd, stdout+stderr as text."""
    child = await asyncio.create_subprocess_exec(
        "/bin/sh",
        "-c",
        command,
        cwd=cfg["cwd"],
        env={**os.environ, **env},
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await child.communicate()
    return out.decode("utf-8", errors="replace")


def options():
    servers = {}
    if cfg.get("mcpShell"):

        @sdk.tool("Bash", "Run a shell command in the project and return its output.", {"command": str})
        async def bash(args):
            return {"content": [{"type": "text", "text": await sh(args["command"])}]}

        servers["sh"] = sdk.create_sdk_mcp_server(name="sh", tools=[bash])
    if cfg.get("mcpEndTurn"):

        @sdk.tool("end_turn", "End the turn with a summary of what was done.", {"summary": str})
        async def end_turn(args):
            return {"content": [{"type": "text", "text": "turn ended"}]}

        servers["ctl"] = sdk.create_sdk_mcp_server(name="ctl", tools=[end_turn])
    if servers:
        # 0.2.189 has no alwaysLoad; without this the tools hide behind ToolSearch.
        env.setdefault("ENABLE_TOOL_SEARCH", "false")

    kwargs = {
        "cwd": cfg["cwd"],
        "env": env,
        "permission_mode": "bypassPermissions",
        "stderr": lambda line: sys.stderr.write(line + "\n"),
    }
    if cfg.get("settingSources") is not None:
        kwargs["setting_sources"] = cfg["settingSources"]
    settings = cfg.get("settings")
    if settings is not None:
        kwargs["settings"] = settings if isinstance(settings, str) else json.dumps(settings)
    if cfg.get("claudePath"):
        kwargs["cli_path"] = cfg["claudePath"]
    if servers:
        kwargs["mcp_servers"] = servers
    return sdk.ClaudeAgentOptions(**kwargs)


async def main():
    async for message in sdk.query(prompt=cfg["prompt"], options=options()):
        if not RAW:
            emit(parsed(message))


try:
    asyncio.run(main())
except Exception as e:  # noqa: BLE001 - reported to the test, which shows stderr
    import traceback

    traceback.print_exc()
    sys.stderr.write(f"run.py: the query failed: {e}\n")
    sys.exit(1)
sys.exit(0)
