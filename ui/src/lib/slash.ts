// The composer's slash commands (/model, /set, /profile, /help), run against the
// conversation on screen. Parsing is in `commands.ts`; this is what each one does.
import type { ChatSession, SessionParts } from './chat.svelte';
import { applySetting, describeSetting, HELP, mistypedLevel, type Command } from './commands';
import { choiceLabel } from './format';
import { AppError } from './ipc';
import { defaultReasoningSettings, type ModelView } from './types';

export class SlashCommands {
  constructor(
    private readonly session: ChatSession,
    private readonly parts: SessionParts,
  ) {}

  /** `/tools`: each switched-on server, whether this conversation offers it, and its tools. */
  private async listTools(): Promise<void> {
    const servers = await this.parts.tools.loadTools();
    if (servers.length === 0) {
      this.session.note(['No MCP servers yet: add one in Settings → Tools.']);
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
    this.session.note(lines);
  }

  findModel(name: string): ModelView | null {
    return this.parts.catalog.findByName(name, this.session.provider);
  }

  /** Runs a slash command. True when the composer may clear; false keeps the text to fix. */
  async run(command: Command): Promise<boolean> {
    switch (command.kind) {
      case 'help':
        this.session.note([HELP]);
        return true;
      case 'tools':
        await this.listTools();
        return true;
      case 'unknown':
        this.session.note([`Unknown command /${command.name}.`, HELP], 'warning');
        return false;
      case 'invalid':
        this.session.note([command.message], 'error');
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
            this.session.note([level], 'error');
            return false;
          }
          this.session.note([`No model named "${command.model}". Type /model and a few letters to see the list.`], 'error');
          return false;
        }
        let choice = command.choice;
        if (choice === null) {
          const keep = model.levels.some((l) => l.available && l.choice === this.session.reasoning.choice);
          choice = keep ? this.session.reasoning.choice : 'default';
        }
        if (model.levels.length === 0) choice = 'default';
        await this.session.choose(model, choice);
        return true;
      }
      case 'set': {
        if (!command.key) {
          const keys = ['enabled', 'includeInContext', 'includeInResponse', 'format', 'stripFromContext', 'maxOutputTokens', 'longContextCut', 'effort'] as const;
          this.session.note(['Reasoning settings for this conversation:', ...keys.map((k) => describeSetting(this.session.reasoning, k))]);
          return true;
        }
        if (command.value === null) {
          this.session.note([describeSetting(this.session.reasoning, command.key)]);
          return true;
        }
        const result = applySetting(this.session.reasoning, command.key, command.value);
        if (!result.ok) {
          this.session.note([result.error], 'error');
          return false;
        }
        if (command.key === 'effort' && this.session.selectedModel) {
          this.session.once = null;
          await this.session.saveReasoning(result.value, false);
          await this.session.feedback(this.session.selectedModel, result.value.choice, result.value, false);
          return true;
        }
        return this.session.saveReasoning(result.value, true, command.key);
      }
      case 'profile':
        return this.profile(command.action, command.name);
    }
  }

  async profile(action: 'save' | 'load' | 'delete' | 'list', name: string | null): Promise<boolean> {
    const profiles = { ...(this.parts.settings.current.profiles ?? {}) };
    if (action === 'list' || !name) {
      const names = Object.keys(profiles).sort();
      this.session.note([names.length ? `Profiles: ${names.join(', ')}` : 'No profiles yet. Save this conversation\'s settings with /profile save NAME.']);
      return true;
    }
    if (action === 'load') {
      const profile = profiles[name];
      if (!profile) {
        this.session.note([`No profile named "${name}".`, `Profiles: ${Object.keys(profiles).sort().join(', ') || 'none yet'}`], 'error');
        return false;
      }
      const ok = await this.session.saveReasoning({ ...defaultReasoningSettings(), ...profile }, false);
      if (ok) this.session.note([`✓ Loaded profile ${name}`, `Thinking: ${choiceLabel(profile.choice)} · thoughts ${profile.includeInContext ? 'sent back' : 'kept out of context'} · ${profile.includeInResponse ? 'shown' : 'hidden'}`], 'success');
      return ok;
    }
    if (action === 'save') profiles[name] = { ...this.session.reasoning };
    else if (!(name in profiles)) {
      this.session.note([`No profile named "${name}".`], 'error');
      return false;
    } else delete profiles[name];
    try {
      await this.parts.settings.save({ profiles });
      this.session.note([action === 'save' ? `✓ Saved profile ${name}` : `✓ Deleted profile ${name}`], 'success');
      return true;
    } catch (raw) {
      this.session.errorNote(AppError.from(raw));
      return false;
    }
  }

}
