// The composer's slash commands (/model, /set, /profile, /help), run against the
// conversation on screen. Parsing is in `commands.ts`; this is what each one does.
import { applySetting, describeSetting, HELP, mistypedLevel, type Command } from './commands';
import type { Notes } from './notes.svelte';
import type { Profiles } from './profiles';
import type { ReasoningChoice } from './reasoning-choice.svelte';
import type { SessionParts } from './session-types';
import type { ModelView, ReasoningSettings } from './types';

/** The part of the session the commands read and act through. */
export interface SlashHost {
  readonly provider: string | null;
  readonly reasoning: ReasoningSettings;
  readonly selectedModel: ModelView | null;
  readonly notes: Pick<Notes, 'add'>;
  readonly choice: Pick<ReasoningChoice, 'choose' | 'clearOnce' | 'feedback' | 'saveReasoning'>;
  readonly profiles: Pick<Profiles, 'list' | 'load' | 'save' | 'delete'>;
}

export class SlashCommands {
  constructor(
    private readonly session: SlashHost,
    private readonly parts: Pick<SessionParts, 'ui' | 'catalog' | 'tools'>,
  ) {}

  /** `/tools`: each switched-on server, whether this conversation offers it, and its tools. */
  private async listTools(): Promise<void> {
    const servers = await this.parts.tools.loadTools();
    if (servers.length === 0) {
      this.session.notes.add(['No MCP servers yet: add one in Settings → Tools.']);
      return;
    }
    const choice = this.session.reasoning.tools ?? { servers: [], off: [], allowed: [] };
    const lines = ['Tools (switch them with the tools button beside the message box):'];
    for (const server of servers) {
      const on = choice.servers.includes(server.id);
      if (server.error) {
        lines.push(`${server.name}: ${server.error}`);
        continue;
      }
      const names = server.tools.map((t) => (choice.off.includes(`${server.id}/${t.name}`) ? `${t.name} (off)` : t.name));
      lines.push(`${server.name} — ${on ? 'on' : 'off'} for this conversation: ${names.join(', ') || 'no tools'}`);
    }
    this.session.notes.add(lines);
  }

  findModel(name: string): ModelView | null {
    return this.parts.catalog.findByName(name, this.session.provider);
  }

  /** Runs a slash command. True when the composer may clear; false keeps the text to fix. */
  async run(command: Command): Promise<boolean> {
    switch (command.kind) {
      case 'help':
        this.session.notes.add([HELP]);
        return true;
      case 'tools':
        await this.listTools();
        return true;
      case 'unknown':
        this.session.notes.add([`Unknown command /${command.name}.`, HELP], 'warning');
        return false;
      case 'invalid':
        this.session.notes.add([command.message], 'error');
        return false;
      case 'model': {
        if (!command.model) {
          this.parts.ui.openPicker();
          return true;
        }
        const model = this.findModel(command.model);
        if (!model) {
          const level = mistypedLevel(command.model, (id) => this.findModel(id) !== null);
          if (level) {
            this.session.notes.add([level], 'error');
            return false;
          }
          this.session.notes.add([`No model named "${command.model}". Type /model and a few letters to see the list.`], 'error');
          return false;
        }
        let choice = command.choice;
        if (choice === null) {
          const keep = model.levels.some((l) => l.available && l.choice === this.session.reasoning.choice);
          choice = keep ? this.session.reasoning.choice : 'default';
        }
        if (model.levels.length === 0) choice = 'default';
        await this.session.choice.choose(model, choice, { once: false });
        return true;
      }
      case 'set': {
        if (!command.key) {
          const keys = ['enabled', 'includeInContext', 'includeInResponse', 'format', 'stripFromContext', 'maxOutputTokens', 'longContextCut', 'effort'] as const;
          this.session.notes.add(['Reasoning settings for this conversation:', ...keys.map((k) => describeSetting(this.session.reasoning, k))]);
          return true;
        }
        if (command.value === null) {
          this.session.notes.add([describeSetting(this.session.reasoning, command.key)]);
          return true;
        }
        const result = applySetting(this.session.reasoning, command.key, command.value);
        if (!result.ok) {
          this.session.notes.add([result.error], 'error');
          return false;
        }
        if (command.key === 'effort' && this.session.selectedModel) {
          this.session.choice.clearOnce();
          await this.session.choice.saveReasoning(result.value, { announce: false });
          await this.session.choice.feedback(this.session.selectedModel, result.value.choice, result.value, { once: false });
          return true;
        }
        return this.session.choice.saveReasoning(result.value, { announce: true, key: command.key });
      }
      case 'profile': {
        const { profiles } = this.session;
        if (command.action === 'list' || !command.name) return profiles.list();
        if (command.action === 'load') return profiles.load(command.name);
        if (command.action === 'save') return profiles.save(command.name);
        return profiles.delete(command.name);
      }
    }
  }
}
