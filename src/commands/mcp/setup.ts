// What `checkin mcp --print-config <agent>` prints: the one line or the snippet that adds checkin's
// MCP server to each agent. `checkin` must be on the PATH the agent starts it with.

export const AGENTS = ['claude', 'codex', 'vscode', 'cursor'] as const;
export type Agent = (typeof AGENTS)[number];

export function agentSetup(agent: Agent, allowSend: boolean): string {
  const args = allowSend ? ['mcp', '--allow-send'] : ['mcp'];
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  switch (agent) {
    case 'claude':
      return `# Claude Code: run once (add --scope user for every project, --scope project to share it in .mcp.json)\nclaude mcp add checkin -- checkin ${args.join(' ')}\n`;
    case 'codex':
      return `# Codex: run once\ncodex mcp add checkin -- checkin ${args.join(' ')}\n# or add to ~/.codex/config.toml:\n[mcp_servers.checkin]\ncommand = "checkin"\nargs = [${args.map((a) => `"${a}"`).join(', ')}]\n`;
    case 'vscode':
      return `// VS Code (Copilot agent mode): add to .vscode/mcp.json (or run \`code --add-mcp '${JSON.stringify({ name: 'checkin', command: 'checkin', args })}'\`)\n${json({ servers: { checkin: { type: 'stdio', command: 'checkin', args } } })}\n`;
    case 'cursor':
      return `// Cursor: add to ~/.cursor/mcp.json (or .cursor/mcp.json in a project)\n${json({ mcpServers: { checkin: { command: 'checkin', args } } })}\n`;
  }
}
