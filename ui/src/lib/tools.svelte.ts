// MCP servers and their tools: the servers the settings hold, where each stands, the tools
// each offers, and saving a server with its secrets (which go to the keyring, never the
// settings).
import { AppError, ipc } from './ipc';
import type { SettingsState } from './settings.svelte';
import type { McpServer, McpServerState, McpServerTools, McpToolInfo } from './types';
import type { Ui } from './ui.svelte';

export type TestResult = { ok: true; tools: McpToolInfo[] } | { ok: false; error: string };

/** An id from a name: lowercase letters, digits and `-`, starting with a letter. */
export function serverId(name: string, taken: readonly string[]): string {
  let base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+|-+$/g, '')
    .slice(0, 28);
  if (!base) base = 'server';
  let id = base;
  for (let n = 2; taken.includes(id); n += 1) id = `${base}-${n}`;
  return id;
}

export class ToolsState {
  /** Where each server stands, by id (servers not listed have not started). */
  status = $state<Record<string, McpServerState>>({});
  /** The switched-on servers' tools, once asked for. */
  available = $state<McpServerTools[] | null>(null);
  loading = $state(false);

  constructor(
    private readonly ui: Ui,
    private readonly settings: SettingsState,
  ) {}

  get servers(): McpServer[] {
    return this.settings.current.mcpServers ?? [];
  }

  stateOf(id: string): McpServerState {
    return this.status[id] ?? { kind: 'stopped' };
  }

  async refreshStatus(): Promise<void> {
    try {
      const list = await ipc.mcpStatus();
      this.status = Object.fromEntries(list.map((s) => [s.id, s.state]));
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  /** Starts a server afresh and lists its tools. */
  async test(id: string): Promise<TestResult> {
    this.status = { ...this.status, [id]: { kind: 'starting' } };
    try {
      const tools = await ipc.mcpTest(id);
      return { ok: true, tools };
    } catch (raw) {
      return { ok: false, error: AppError.from(raw).message };
    } finally {
      await this.refreshStatus();
    }
  }

  /** Every switched-on server's tools (servers start as needed). */
  async loadTools(): Promise<McpServerTools[]> {
    this.loading = true;
    try {
      this.available = await ipc.mcpTools();
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      this.available = [];
    } finally {
      this.loading = false;
    }
    void this.refreshStatus();
    return this.available ?? [];
  }

  /**
   * Adds or replaces a server, then stores its secret values in the keyring. Returns the
   * error to show beside the form, or null.
   */
  async save(server: McpServer, secrets: Record<string, string>): Promise<string | null> {
    const others = this.servers.filter((s) => s.id !== server.id);
    try {
      await this.settings.save({ mcpServers: [...others, server] });
    } catch (raw) {
      return AppError.from(raw).message;
    }
    try {
      for (const [name, value] of Object.entries(secrets)) {
        if (value) await ipc.setMcpSecret(server.id, name, value);
      }
    } catch (raw) {
      return `Saved, but a secret could not be stored: ${AppError.from(raw).message}`;
    }
    this.available = null;
    await this.refreshStatus();
    return null;
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    await this.settings.update({ mcpServers: this.servers.map((s) => (s.id === id ? { ...s, enabled } : s)) });
    this.available = null;
    await this.refreshStatus();
  }

  async remove(id: string): Promise<void> {
    const server = this.servers.find((s) => s.id === id);
    if (!server) return;
    await this.settings.update({ mcpServers: this.servers.filter((s) => s.id !== id) });
    const names = server.transport.type === 'stdio' ? server.transport.secretEnv : server.transport.secretHeaders;
    for (const name of names) await ipc.clearMcpSecret(id, name).catch(() => undefined);
    this.available = null;
    await this.refreshStatus();
  }
}
