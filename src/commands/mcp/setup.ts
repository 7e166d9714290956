// What `checkin mcp --print-config <agent>` prints: the one line or the snippet that adds checkin's
// MCP server to each agent. `checkin` must be on the PATH the agent starts it with.

export const AGENTS = ['claude', 'codex', 'vscode', 'cursor'] as const;
export type Agent = (typeof AGENTS)[number];

/**
 * What to tell the person (stderr) and what to add or run (stdout: exactly the file's content or the
 * command, so `>> ~/.codex/config.toml` or a JSON tool takes it as it is).
 */
export function agentSetup(agent: Agent, allowSend: boolean, readOnly = false, extra: readonly string[] = []): { note: string; snippet: string } {
  const args = ['mcp', ...(allowSend ? ['--allow-send'] : []), ...(readOnly ? ['--read-only'] : []), ...extra];
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  switch (agent) {
    case 'claude':
      return {
        note: 'Claude Code: run this once (add --scope user for every project, --scope project to share it in .mcp.json):',
        snippet: `claude mcp add checkin -- checkin ${args.join(' ')}\n`,
      };
    case 'codex':
      return {
        note: `Codex: add this to ~/.codex/config.toml (or run once: codex mcp add checkin -- checkin ${args.join(' ')}):`,
        snippet: `[mcp_servers.checkin]\ncommand = "checkin"\nargs = [${args.map((a) => `"${a}"`).join(', ')}]\n`,
      };
    case 'vscode':
      return {
        note: `VS Code (Copilot agent mode): add this to .vscode/mcp.json (or run: code --add-mcp '${JSON.stringify({ name: 'checkin', command: 'checkin', args })}'):`,
        snippet: `${json({ servers: { checkin: { type: 'stdio', command: 'checkin', args } } })}\n`,
      };
    case 'cursor':
      return {
        note: 'Cursor: add this to ~/.cursor/mcp.json (or .cursor/mcp.json in a project):',
        snippet: `${json({ mcpServers: { checkin: { command: 'checkin', args } } })}\n`,
      };
  }
}
