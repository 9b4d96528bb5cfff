// Named reasoning settings, kept among the app's settings: saved from the conversation on
// screen, applied to it, deleted and listed (`/profile`, the Reasoning panel, Settings).
import { choiceLabel } from './format';
import { AppError } from './ipc';
import type { Notes } from './notes.svelte';
import type { ReasoningChoice } from './reasoning-choice.svelte';
import type { SettingsState } from './settings.svelte';
import { defaultReasoningSettings, type AppSettings, type ReasoningSettings } from './types';

/** The part of the session a profile is saved from, applied to, and answered in. */
export interface ProfilesHost {
  readonly reasoning: ReasoningSettings;
  readonly notes: Pick<Notes, 'add' | 'addError'>;
  readonly choice: Pick<ReasoningChoice, 'saveReasoning'>;
}

type Stored = AppSettings['profiles'];

export class Profiles {
  constructor(
    private readonly host: ProfilesHost,
    private readonly settings: Pick<SettingsState, 'current' | 'save'>,
  ) {}

  /** A copy, so a failed save leaves the settings as they were. */
  private stored(): Stored {
    return { ...(this.settings.current.profiles ?? {}) };
  }

  list(): boolean {
    const names = Object.keys(this.stored()).sort();
    this.host.notes.add([names.length ? `Profiles: ${names.join(', ')}` : 'No profiles yet. Save this conversation\'s settings with /profile save NAME.']);
    return true;
  }

  /** Applies a profile to the conversation on screen. */
  async load(name: string): Promise<boolean> {
    const profiles = this.stored();
    const profile = profiles[name];
    if (!profile) {
      this.host.notes.add([`No profile named "${name}".`, `Profiles: ${Object.keys(profiles).sort().join(', ') || 'none yet'}`], 'error');
      return false;
    }
    const ok = await this.host.choice.saveReasoning({ ...defaultReasoningSettings(), ...profile }, { announce: false });
    if (ok) this.host.notes.add([`✓ Loaded profile ${name}`, `Thinking: ${choiceLabel(profile.choice)} · thoughts ${profile.includeInContext ? 'sent back' : 'kept out of context'} · ${profile.includeInResponse ? 'shown' : 'hidden'}`], 'success');
    return ok;
  }

  /** Saves the conversation's settings under `name`, replacing a profile of that name. */
  save(name: string): Promise<boolean> {
    const profiles = this.stored();
    profiles[name] = { ...this.host.reasoning };
    return this.store(profiles, `✓ Saved profile ${name}`);
  }

  async delete(name: string): Promise<boolean> {
    const profiles = this.stored();
    if (!(name in profiles)) {
      this.host.notes.add([`No profile named "${name}".`], 'error');
      return false;
    }
    delete profiles[name];
    return this.store(profiles, `✓ Deleted profile ${name}`);
  }

  private async store(profiles: Stored, done: string): Promise<boolean> {
    try {
      await this.settings.save({ profiles });
      this.host.notes.add([done], 'success');
      return true;
    } catch (raw) {
      this.host.notes.addError(AppError.from(raw));
      return false;
    }
  }
}
