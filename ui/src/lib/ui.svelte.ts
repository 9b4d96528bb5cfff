// What is open and what has focus: panels, the picker, dialogs, and which thoughts show.
import { SvelteMap } from 'svelte/reactivity';

import type { AppError } from './ipc';
import type { AttachedFile } from './ipc-generated';
import type { ModelView, ThoughtVisibility } from './types';

/** Where the picker starts; with `rerun`, it picks the model and level to answer that message again with. */
export type PickerStart = ({ step: 'model' } | { step: 'level'; model: ModelView }) & { rerun?: string };

export interface ConfirmRequest {
  title: string;
  body: string;
  confirm: string;
  danger?: boolean;
  run: () => void | Promise<void>;
}

/** An image the viewer shows: a stored file, by its hash. */
export type ViewedImage = Pick<AttachedFile, 'sha256' | 'name' | 'bytes'>;

/** The viewer's images (those of one message, or the composer's), the one shown, and the
 * thumbnail it was opened from, which has the focus back when it closes. */
export interface ImageViewing {
  images: readonly ViewedImage[];
  index: number;
  opener: HTMLElement | null;
}

/** What has the focus now, to give it back to when a dialog closes; null for the page itself. */
function focusedNow(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

type Dialog = 'picker' | 'settings' | 'compare' | 'confirm';

export class Ui {
  picker = $state<PickerStart | null>(null);
  settingsOpen = $state(false);
  /** The provider section the settings panel should bring into view. */
  settingsProvider = $state<string | null>(null);
  reasoningOpen = $state(false);
  /** The answer whose versions the compare view shows. */
  compare = $state<string | null>(null);
  confirm = $state<ConfirmRequest | null>(null);
  /** The image viewer, when open. */
  viewer = $state.raw<ImageViewing | null>(null);
  /** Bumped to ask a component to take focus. */
  focusSearch = $state(0);
  focusComposer = $state(0);
  /** The last thing that failed outside a conversation, for the status line. */
  error = $state<AppError | null>(null);
  /** A short message in the status line ("Link copied"), cleared after a while. */
  flash = $state<string | null>(null);
  private flashTimer: ReturnType<typeof setTimeout> | undefined;
  /** Where the focus was when each dialog opened: it goes back there when the dialog closes. */
  private readonly openers = new Map<Dialog, HTMLElement | null>();

  readonly thoughts = new ThoughtView();

  openPicker(start: PickerStart = { step: 'model' }): void {
    if (!this.picker) this.openers.set('picker', focusedNow());
    this.picker = start;
  }

  /** Closes the picker. Left without a choice, the focus goes back where it was; after a
   * choice, to the composer, where the message with that model is written next; left by a
   * click elsewhere, it stays with what was clicked. */
  closePicker(focus: 'back' | 'composer' | 'stay' = 'back'): void {
    this.picker = null;
    const opener = this.takeOpener('picker');
    if (focus !== 'stay') this.giveFocusBack(focus === 'back' ? opener : null);
  }

  openSettings(provider: string | null = null): void {
    // Settings opened from the picker ("Add key") go back to the composer, not to the picker.
    const opener = this.picker ? this.takeOpener('picker') : focusedNow();
    this.picker = null;
    if (!this.settingsOpen) this.openers.set('settings', opener);
    this.settingsProvider = provider;
    this.settingsOpen = true;
  }

  closeSettings(): void {
    this.settingsOpen = false;
    this.settingsProvider = null;
    this.giveFocusBack(this.takeOpener('settings'));
  }

  openCompare(messageId: string): void {
    if (!this.compare) this.openers.set('compare', focusedNow());
    this.compare = messageId;
  }

  closeCompare(): void {
    this.compare = null;
    this.giveFocusBack(this.takeOpener('compare'));
  }

  ask(request: ConfirmRequest): void {
    if (!this.confirm) this.openers.set('confirm', focusedNow());
    this.confirm = request;
  }

  closeConfirm(): void {
    this.confirm = null;
    this.giveFocusBack(this.takeOpener('confirm'));
  }

  /** Where the focus was when that dialog opened, forgotten as it is read. */
  private takeOpener(dialog: Dialog): HTMLElement | null {
    const opener = this.openers.get(dialog) ?? null;
    this.openers.delete(dialog);
    return opener;
  }

  /** Focuses `opener` once the dialog is gone (after the frame that removes it), or the
   * composer where it is gone or was never known. */
  private giveFocusBack(opener: HTMLElement | null): void {
    if (!opener) {
      this.focusComposer += 1;
      return;
    }
    const give = (): void => {
      // Something took the focus meanwhile (the engine gave it back itself, or Ctrl+M right
      // after Esc opened the picker): it keeps it.
      if (focusedNow()) return;
      if (opener.isConnected && opener.getClientRects().length > 0) opener.focus({ preventScroll: false });
      else this.focusComposer += 1;
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(give);
    else give();
  }

  openViewer(images: readonly ViewedImage[], index: number, opener: HTMLElement | null): void {
    if (images.length === 0) return;
    this.viewer = { images, index: Math.min(Math.max(0, index), images.length - 1), opener };
  }

  /** Shows the image `by` places on (or back), going round at either end. */
  stepViewer(by: number): void {
    const v = this.viewer;
    if (!v || v.images.length < 2) return;
    const n = v.images.length;
    this.viewer = { ...v, index: (((v.index + by) % n) + n) % n };
  }

  /** Closes the viewer; the thumbnail it was opened from has the focus again (or the
   * composer, where that thumbnail is gone). */
  closeViewer(): void {
    const opener = this.viewer?.opener ?? null;
    this.viewer = null;
    if (opener?.isConnected) opener.focus();
    else this.focusComposer += 1;
  }

  /** What the page's live regions say now (see Announcer.svelte). */
  spoken = $state({ polite: '', assertive: '' });
  private readonly spokenTimers: Record<'polite' | 'assertive', ReturnType<typeof setTimeout> | undefined> = { polite: undefined, assertive: undefined };

  /** Says `text` to a screen reader: politely (after what it is reading), or at once. The
   * region is emptied first, so the same words twice are said twice, and again a while
   * after, so that reading the page later does not come upon them. */
  announce(text: string, assertive = false): void {
    const key = assertive ? 'assertive' : 'polite';
    this.spoken = { ...this.spoken, [key]: '' };
    clearTimeout(this.spokenTimers[key]);
    this.spokenTimers[key] = setTimeout(() => {
      this.spoken = { ...this.spoken, [key]: text };
      this.spokenTimers[key] = setTimeout(() => (this.spoken = { ...this.spoken, [key]: '' }), 10000);
    }, 60);
  }

  /** Shows `text` in the status line for a while; a screen reader says it too. */
  say(text: string, ms = 4000): void {
    this.flash = text;
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => (this.flash = null), ms);
  }
}

/**
 * Which thoughts are open. Each pane follows, in order: its own click, the last Ctrl+O
 * (show or hide all), then the default-visibility setting.
 */
export class ThoughtView {
  visibility = $state<ThoughtVisibility>('auto');
  /** Set by Ctrl+O: every pane open (true) or folded (false); null follows the setting. */
  all = $state<boolean | null>(null);
  private readonly own = new SvelteMap<string, boolean>();

  /** Whether a finished thought starts open. */
  get defaultOpen(): boolean {
    return this.visibility === 'expanded';
  }

  /** Whether a thought that is still streaming shows its live text. */
  liveOpen(key: string): boolean {
    return this.own.get(key) ?? this.all ?? this.visibility !== 'collapsed';
  }

  isOpen(key: string): boolean {
    return this.own.get(key) ?? this.all ?? this.defaultOpen;
  }

  set(key: string, open: boolean): void {
    this.own.set(key, open);
  }

  /** Ctrl+O: if the panes are shown by default or by the last toggle, hide all; else show all. */
  toggleAll(): boolean {
    const showing = this.all ?? this.defaultOpen;
    this.all = !showing;
    this.own.clear();
    return this.all;
  }
}
