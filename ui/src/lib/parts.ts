// How a message's parts are shown: consecutive thoughts share one pane, consecutive text one
// answer, and a tool's result joins its call's card.

import type { AttachmentPart, PartView, ThinkingPart, ToolCallPart, ToolResultPart } from './types';

export type ThinkingGroup = { kind: 'thinking'; parts: ThinkingPart[]; first: number };

export type PartGroup =
  | ThinkingGroup
  | { kind: 'text'; text: string }
  | { kind: 'tool'; call: ToolCallPart | null; result: ToolResultPart | null };

export function groupParts(parts: readonly PartView[]): PartGroup[] {
  const out: PartGroup[] = [];
  let thoughts = 0;
  for (const part of parts) {
    const last = out.at(-1);
    if (part.type === 'thinking') {
      if (last?.kind === 'thinking') last.parts.push(part);
      else out.push({ kind: 'thinking', parts: [part], first: thoughts });
      thoughts += 1;
    } else if (part.type === 'text') {
      if (last?.kind === 'text') last.text += part.text;
      else out.push({ kind: 'text', text: part.text });
    } else if (part.type === 'toolCall') {
      out.push({ kind: 'tool', call: part, result: null });
    } else if (part.type === 'toolResult') {
      // A result joins its call's card; one whose call is not here gets a card of its own.
      const card = out.find((g) => g.kind === 'tool' && g.call?.id === part.callId && g.result === null);
      if (card && card.kind === 'tool') card.result = part;
      else out.push({ kind: 'tool', call: null, result: part });
    }
    // Attachments are shown with the user's words (`attachmentsOf`), not in an answer.
  }
  return out;
}

/** The files given with a message, as its chips show them. */
export function attachmentsOf(parts: readonly PartView[]): AttachmentPart[] {
  return parts.filter((p): p is AttachmentPart => p.type === 'attachment');
}

/** The Markdown a message's answer shows (each run of text between thoughts and tools). */
export function answerTexts(parts: readonly PartView[]): string[] {
  return groupParts(parts).flatMap((g) => (g.kind === 'text' ? [g.text] : []));
}
